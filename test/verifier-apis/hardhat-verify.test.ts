import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Abi, encodeAbiParameters, encodeDeployData, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getVerifiedContract } from "../../src/verifier/store/index.js";
import {
  HARDHAT_CLI,
  HARDHAT_NETWORK,
  type HardhatProjectOptions,
  hardhatConfig,
  runHardhat,
  writeHardhatProject,
} from "../helpers/hardhat.js";
import { type ApisEnv, startApisEnv } from "../helpers/verification-apis.js";

const SOURCES = {
  "contracts/Owned.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

abstract contract Owned {
    address public immutable owner;

    constructor() {
        owner = msg.sender;
    }
}
`,
  "contracts/Vault.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Owned} from "./Owned.sol";

contract Vault is Owned {
    string public label;
    uint256 public factor;

    constructor(string memory label_, uint256 factor_) {
        label = label_;
        factor = factor_;
    }

    function scaled(uint256 v) external view returns (uint256) {
        return v * factor;
    }
}
`,
  // Not imported by Vault: hardhat-verify's first attempt sends the minimal input (Vault's import closure), so this
  // file must not be needed to reproduce Vault's bytecode.
  "contracts/Unrelated.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Unrelated {
    function ping() external pure returns (uint256) {
        return 1;
    }
}
`,
};

type Artifact = { abi: Abi; bytecode: Hex };

describe.skipIf(!existsSync(HARDHAT_CLI))(
  "hardhat verify (hardhat-verify 2) against Lookout (real hardhat, anvil and server)",
  () => {
    let env: ApisEnv;
    let root: string;
    let options: HardhatProjectOptions;
    const vaults: Hex[] = [];
    const ARGS: Array<[string, bigint]> = [
      ["etherscan", 3n],
      ["blockscout", 5n],
    ];
    const hardhat = (args: string[]) => runHardhat(args, { cwd: root, timeoutMs: 180_000 });
    const useVerifier = (verifier: HardhatProjectOptions["verifier"]) => {
      options = { ...options, verifier };
      writeFileSync(join(root, "hardhat.config.js"), hardhatConfig(options));
    };
    const verifyArgs = (address: Hex, [label, factor]: [string, bigint]) => [
      "verify",
      "--network",
      HARDHAT_NETWORK,
      address,
      label,
      String(factor),
    ];

    beforeAll(async () => {
      env = await startApisEnv();
      await env.apis.listen({ port: 0, host: "127.0.0.1" });
      const base = `http://127.0.0.1:${(env.apis.server.address() as { port: number }).port}`;
      root = mkdtempSync(join(tmpdir(), "lookout-hardhat-project-"));
      options = {
        rpcUrl: env.chain.anvil.url,
        chainId: env.chain.anvil.chainId,
        privateKey: env.chain.anvil.accounts[0]!.privateKey,
        apiUrl: `${base}/api`,
        browserUrl: base,
        verifier: "etherscan",
        sources: SOURCES,
      };
      writeHardhatProject(root, options);

      const compiled = await hardhat(["compile"]);
      expect(compiled.code, compiled.out).toBe(0);
      const artifact = JSON.parse(
        readFileSync(join(root, "artifacts/contracts/Vault.sol/Vault.json"), "utf8"),
      ) as Artifact;
      // Deployed and indexed before any is verified: indexed after a verification, the second copy would be
      // verified automatically (same code) and hardhat would only report it as verified already.
      for (const [label, factor] of ARGS) {
        vaults.push(
          await env.deploy(
            encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args: [label, factor] }),
          ),
        );
      }
      await env.sync();
    }, 240_000);

    afterAll(async () => {
      await env?.stop();
      if (root) rmSync(root, { recursive: true, force: true });
    });

    const expectVerified = async (address: Hex, [label, factor]: [string, bigint]) => {
      const stored = await getVerifiedContract(env.db.db, String(env.chain.anvil.chainId), address);
      expect(stored).toMatchObject({
        contractName: "Vault",
        fileName: "contracts/Vault.sol",
        matchType: "full",
      });
      const explorer = await env.apis.inject({ method: "GET", url: `/api/v2/smart-contracts/${address}` });
      expect(explorer.statusCode).toBe(200);
      expect(explorer.json()).toMatchObject({
        is_verified: true,
        is_fully_verified: true,
        name: "Vault",
        file_path: "contracts/Vault.sol",
        constructor_args: encodeAbiParameters([{ type: "string" }, { type: "uint256" }], [label, factor]),
      });
    };

    it("etherscan.customChains apiURL = http://HOST/api: verifies, then reports it verified already", async () => {
      useVerifier("etherscan");
      const r = await hardhat(verifyArgs(vaults[0]!, ARGS[0]!));
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(/Successfully submitted source code for contract\s+contracts\/Vault\.sol:Vault/);
      expect(r.out).toMatch(/Successfully verified contract Vault on the block explorer/);
      expect(r.out).not.toMatch(/Trying again with the full solc input/);
      await expectVerified(vaults[0]!, ARGS[0]!);

      // Again: hardhat-verify asks getsourcecode first, finds source code and stops there.
      const again = await hardhat(verifyArgs(vaults[0]!, ARGS[0]!));
      expect(again.code, again.out).toBe(0);
      expect(again.out).toMatch(/has already been verified on the block explorer/);

      // --force skips that look-up and submits: Lookout's submit answer is Etherscan's "already verified" text,
      // which hardhat-verify reports as an error of its own (exit code 1), not as a failed verification.
      const forced = await hardhat([...verifyArgs(vaults[0]!, ARGS[0]!), "--force"]);
      expect(forced.code, forced.out).toBe(1);
      expect(forced.out).toMatch(
        /The block explorer's API responded that the contract contracts\/Vault\.sol:Vault at 0x[0-9a-fA-F]{40}\s+is already verified/,
      );
    }, 300_000);

    it("blockscout.customChains apiURL = http://HOST/api: verifies without sending constructor arguments", async () => {
      // hardhat-verify's Blockscout backend sends an empty constructorArguements: Lookout takes them from the
      // indexed creation transaction.
      useVerifier("blockscout");
      const r = await hardhat(verifyArgs(vaults[1]!, ARGS[1]!));
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(/Successfully verified contract Vault on the block explorer/);
      await expectVerified(vaults[1]!, ARGS[1]!);

      const again = await hardhat(verifyArgs(vaults[1]!, ARGS[1]!));
      expect(again.code, again.out).toBe(0);
      expect(again.out).toMatch(/has already been verified on the block explorer/);
    }, 300_000);
  },
);
