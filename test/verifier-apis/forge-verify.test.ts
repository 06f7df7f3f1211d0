import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeAbiParameters, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getVerifiedContract } from "../../src/verifier/store/index.js";
import { FORGE, installFakeSolc, runForge, writeProject } from "../helpers/forge.js";
import { type ApisEnv, startApisEnv } from "../helpers/verification-apis.js";

const COMPILER = "0.8.26+commit.8a97fa7a";

const PROJECT = {
  "foundry.toml": `[profile.default]
src = "src"
out = "out"
libs = []
solc_version = "0.8.26"
optimizer = true
optimizer_runs = 200
offline = true
`,
  "src/MathLib.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

library MathLib {
    function scale(uint256 v, uint256 by) external pure returns (uint256) {
        return v * by;
    }
}
`,
  "src/Vault.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {MathLib} from "./MathLib.sol";

contract Vault {
    string public label;
    uint256 public factor;
    address public immutable owner;

    constructor(string memory label_, uint256 factor_) {
        label = label_;
        factor = factor_;
        owner = msg.sender;
    }

    function scaled(uint256 v) external view returns (uint256) {
        return MathLib.scale(v, factor);
    }
}
`,
};

const deployedTo = (out: string) => {
  const m = /Deployed to: (0x[0-9a-fA-F]{40})/.exec(out);
  if (!m) throw new Error(`forge create printed no address:\n${out}`);
  return m[1]!.toLowerCase() as Hex;
};

describe.skipIf(!FORGE)("forge verify-contract against Lookout (real forge, anvil and server)", () => {
  let env: ApisEnv;
  let home: string;
  let root: string;
  let base: string;
  let lib: Hex;
  const vaults: Hex[] = [];
  const forge = (args: string[], env: Record<string, string> = {}) =>
    runForge(args, { cwd: root, home, env, timeoutMs: 180_000 });
  // forge create leaves a build cache naming the compiler without its commit; verify-contract would then look the
  // commit up in the official list (no network here). Verifying from a clean project avoids that.
  const cleanBuild = () => {
    rmSync(join(root, "cache"), { recursive: true, force: true });
    rmSync(join(root, "out"), { recursive: true, force: true });
  };
  const rpcArgs = () => ["--rpc-url", env.chain.anvil.url];
  const key = () => env.chain.anvil.accounts[0]!.privateKey;
  const ctorArgs = (label: string, factor: bigint) =>
    encodeAbiParameters([{ type: "string" }, { type: "uint256" }], [label, factor]);
  const libraries = () => ["--libraries", `src/MathLib.sol:MathLib:${lib}`];
  const verifyArgs = (address: Hex, label: string, factor: bigint) => {
    cleanBuild();
    return [
      "verify-contract",
      address,
      "src/Vault.sol:Vault",
      ...rpcArgs(),
      "--compiler-version",
      COMPILER,
      "--constructor-args",
      ctorArgs(label, factor),
      ...libraries(),
      "--watch",
      "--retries",
      "10",
      "--delay",
      "1",
    ];
  };
  const LABELS: Array<[string, bigint]> = [
    ["blockscout", 2n],
    ["etherscan", 3n],
    ["sourcify", 4n],
  ];

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "lookout-forge-home-"));
    root = mkdtempSync(join(tmpdir(), "lookout-forge-project-"));
    installFakeSolc(home);
    writeProject(root, PROJECT);
    env = await startApisEnv();
    await env.apis.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(env.apis.server.address() as { port: number }).port}`;

    const created = await forge([
      "create",
      "src/MathLib.sol:MathLib",
      ...rpcArgs(),
      "--private-key",
      key(),
      "--broadcast",
    ]);
    expect(created.code, created.out).toBe(0);
    lib = deployedTo(created.out);
    // One Vault per verifier, all deployed and indexed before any is verified: the indexer would otherwise verify
    // later copies automatically (same code as a verified contract) and forge would find them verified already.
    for (const [label, factor] of LABELS) {
      const r = await forge([
        "create",
        "src/Vault.sol:Vault",
        ...rpcArgs(),
        "--private-key",
        key(),
        "--broadcast",
        ...libraries(),
        "--constructor-args",
        label,
        String(factor),
      ]);
      expect(r.code, r.out).toBe(0);
      vaults.push(deployedTo(r.out));
    }
    await env.sync();
  });
  afterAll(async () => {
    await env?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const expectVerified = async (address: Hex) => {
    const stored = await getVerifiedContract(env.db.db, String(env.chain.anvil.chainId), address);
    expect(stored).toMatchObject({ contractName: "Vault", fileName: "src/Vault.sol", matchType: "full" });
    const explorer = await env.apis.inject({ method: "GET", url: `/api/v2/smart-contracts/${address}` });
    if (explorer.statusCode === 200) expect(explorer.json()).toMatchObject({ name: "Vault" });
    return explorer.statusCode;
  };

  it("--verifier blockscout --verifier-url http://HOST/api/", async () => {
    const [label, factor] = LABELS[0]!;
    const r = await forge([
      ...verifyArgs(vaults[0]!, label, factor),
      "--verifier",
      "blockscout",
      "--verifier-url",
      `${base}/api/`,
    ]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/Contract successfully verified/);
    expect(await expectVerified(vaults[0]!)).toBe(200);

    // Again: forge's pre-check (getabi) finds it verified and stops there.
    const again = await forge([
      ...verifyArgs(vaults[0]!, label, factor),
      "--verifier",
      "blockscout",
      "--verifier-url",
      `${base}/api/`,
    ]);
    expect(again.code, again.out).toBe(0);
    expect(again.out).toMatch(/is already verified/);
  });

  it("--verifier etherscan with a custom --verifier-url", async () => {
    const [label, factor] = LABELS[1]!;
    // forge takes an Etherscan key only from an [etherscan] entry for a chain it knows no Etherscan for (anvil);
    // with that entry present it would use Etherscan even for --verifier sourcify, so it is there for this test only.
    const toml = join(root, "foundry.toml");
    writeFileSync(
      toml,
      `${PROJECT["foundry.toml"]}\n[etherscan]\nlookout = { key = "lookout", chain = ${env.chain.anvil.chainId}, url = "${base}/api" }\n`,
    );
    try {
      const r = await forge([
        ...verifyArgs(vaults[1]!, label, factor),
        "--verifier",
        "etherscan",
        "--verifier-url",
        `${base}/api`,
      ]);
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(/Contract successfully verified/);
      await expectVerified(vaults[1]!);
    } finally {
      writeFileSync(toml, PROJECT["foundry.toml"]);
    }
  });

  it("--verifier sourcify --verifier-url http://HOST/sourcify/", async () => {
    const [label, factor] = LABELS[2]!;
    const args = [
      ...verifyArgs(vaults[2]!, label, factor),
      "--verifier",
      "sourcify",
      "--verifier-url",
      `${base}/sourcify/`,
    ];
    const r = await forge(args);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/Contract successfully verified/);
    await expectVerified(vaults[2]!);
    const again = await forge(args);
    expect(again.code, again.out).toBe(0);
    expect(again.out).toMatch(/already verified/i);
  });
});
