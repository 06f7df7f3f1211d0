import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeFunctionData, type Hex, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromBytea, toBytea } from "../../src/db/bytes.js";
import { createProxiesExtension } from "../../src/indexer/stages/proxies/extension.js";
import { packagePath } from "../../src/util/package-root.js";
import { rpc } from "../helpers/activity.js";
import { runTool } from "../helpers/run-tool.js";
import { type ApisEnv, startApisEnv } from "../helpers/verification-apis.js";
import { build, deployData, standardJsonText, versionFor } from "../helpers/verify-contracts.js";

// A proxy on the EIP-1967 slot that can change its implementation without the Upgraded event: the indexer sees its
// first implementation (at the creation) and no later one, which is what verifyproxycontract is for.
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Box {
    uint256 public value;
    function set(uint256 v) external { value = v; }
}
contract QuietProxy {
    bytes32 private constant SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    constructor(address impl) { assembly { sstore(SLOT, impl) } }
    function upgradeQuietly(address impl) external { assembly { sstore(SLOT, impl) } }
    fallback() external payable {
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), sload(SLOT), 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok case 0 { revert(0, returndatasize()) } default { return(0, returndatasize()) }
        }
    }
}
`;
const SOURCES = { "QuietProxy.sol": SOURCE };
const CAST = packagePath("node_modules/@foundry-rs/cast-linux-amd64/bin/cast");
const SETTINGS = { optimizer: { enabled: true, runs: 200 } };

/**
 * The Etherscan module's verifyproxycontract and checkproxyverification, as hardhat-upgrades calls them (a form
 * post with address and expectedimplementation, then polling the GUID): the indexer reads the proxy again at its
 * next block, the index gains the implementation, and a reorganisation takes that row back like any other.
 */
describe("verifyproxycontract / checkproxyverification", () => {
  let env: ApisEnv;
  let proxy: Hex;
  let box1: Hex;
  let box2: Hex;

  const submit = async (address: string, expected?: string) =>
    (
      await env.apis.inject({
        method: "POST",
        url: "/api?module=contract&action=verifyproxycontract&apikey=x",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({
          address,
          ...(expected ? { expectedimplementation: expected } : {}),
        }).toString(),
      })
    ).json();
  const check = async (guid: string) =>
    (
      await env.apis.inject({
        url: `/api?module=contract&action=checkproxyverification&guid=${guid}&apikey=x`,
      })
    ).json();
  /** The newest implementation the index holds for the proxy, and at which block. */
  const indexed = async () => {
    const [r] = await env.db.db.query<{ implementation: Uint8Array; block_number: number }>(
      "select implementation, block_number from address_proxies where address = $1 order by block_number desc limit 1",
      [toBytea(proxy)],
    );
    return r ? { implementation: fromBytea(r.implementation), block: Number(r.block_number) } : null;
  };
  const mine = () => rpc(env.chain.anvil.url, "evm_mine");
  /** getsourcecode's proxy members: Blockscout's only (foundry takes IsProxy as an alias of Etherscan's Proxy). */
  const sourceProxy = async (address: string) => {
    const item = (
      await env.apis.inject({ url: `/api?module=contract&action=getsourcecode&address=${address}` })
    ).json().result[0];
    return {
      IsProxy: item.IsProxy,
      ImplementationAddress: item.ImplementationAddress,
      ImplementationAddresses: item.ImplementationAddresses,
      Proxy: item.Proxy,
      Implementation: item.Implementation,
    };
  };

  beforeAll(async () => {
    env = await startApisEnv({ extensions: () => [createProxiesExtension()] });
    const chainId = String(env.chain.anvil.chainId);
    const version = versionFor(env.compilers, "0.8.26");
    const built = await build(env.compilers, version, SOURCES, SETTINGS);
    box1 = await env.deploy(deployData(built.Box!));
    box2 = await env.deploy(deployData(built.Box!));
    proxy = await env.deploy(deployData(built.QuietProxy!, [box1]));
    // The proxy and the first Box verified (Blockscout links only a verified proxy).
    for (const address of [proxy, box1]) {
      const r = await env.post("/api/v1/solidity/sources:verify-standard-json", {
        contracts: [{ chainId, address }],
        compiler: version,
        input: standardJsonText(SOURCES, SETTINGS),
      });
      expect(r.body.contractVerificationResults.items[0].status).toBe("FULLY_VERIFIED");
    }
    // The upgrade the indexer cannot see: no event.
    await rpc(env.chain.anvil.url, "eth_sendTransaction", [
      {
        from: env.chain.accounts[0]!.address,
        to: proxy,
        data: encodeFunctionData({
          abi: parseAbi(["function upgradeQuietly(address)"]),
          functionName: "upgradeQuietly",
          args: [box2],
        }),
      },
    ]);
    await env.sync();
  }, 240_000);
  afterAll(async () => {
    await env?.stop();
  });

  it.skipIf(!CAST)(
    "cast source parses the proxy's item (IsProxy and ImplementationAddress, no Proxy)",
    async () => {
      await env.apis.listen({ port: 0, host: "127.0.0.1" });
      const base = `http://127.0.0.1:${(env.apis.server.address() as { port: number }).port}`;
      const home = mkdtempSync(join(tmpdir(), "lookout-cast-home-"));
      try {
        const args = ["source", proxy, "--explorer-api-url", `${base}/api`, "--explorer-url", base];
        const r = await runTool(
          CAST!,
          [...args, "--chain", String(env.chain.anvil.chainId), "-e", "any-key"],
          {
            cwd: home,
            env: { HOME: home, NO_COLOR: "1", FOUNDRY_DISABLE_NIGHTLY_WARNING: "1" },
            timeoutMs: 60_000,
          },
        );
        expect(r.code, r.out).toBe(0);
        expect(r.out).toContain("contract QuietProxy");
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
  );

  it("reads the proxy again at the indexer's next block and keeps what it found", async () => {
    expect((await indexed())?.implementation).toBe(box1.toLowerCase());
    expect(await sourceProxy(proxy)).toEqual({
      IsProxy: "true",
      ImplementationAddress: box1.toLowerCase(),
      ImplementationAddresses: [box1.toLowerCase()],
      Proxy: undefined,
      Implementation: undefined,
    });
    expect(await sourceProxy(box1)).toEqual({
      IsProxy: "false",
      ImplementationAddress: undefined,
      ImplementationAddresses: undefined,
      Proxy: undefined,
      Implementation: undefined,
    });
    const submitted = await submit(proxy, box2);
    expect(submitted).toMatchObject({ status: "1", message: "OK" });
    const guid = submitted.result as string;
    // Not looked at yet: Etherscan's pending answer, which clients poll on.
    expect(await check(guid)).toEqual({ status: "0", message: "NOTOK", result: "Pending in queue" });

    const snap = await rpc<Hex>(env.chain.anvil.url, "evm_snapshot");
    await mine();
    await env.sync();
    const head = Number(await rpc<string>(env.chain.anvil.url, "eth_blockNumber"));
    expect(await check(guid)).toEqual({
      status: "1",
      message: "OK",
      result: `The proxy's (${proxy.toLowerCase()}) implementation contract is found at ${box2.toLowerCase()} and is successfully updated.`,
    });
    expect(await indexed()).toEqual({ implementation: box2.toLowerCase(), block: head });
    expect((await sourceProxy(proxy)).ImplementationAddresses).toEqual([box2.toLowerCase()]);

    // A reorganisation replacing that block takes the row back (the answer given stays).
    await rpc(env.chain.anvil.url, "evm_revert", [snap]);
    await rpc(env.chain.anvil.url, "anvil_setNextBlockTimestamp", [Math.floor(Date.now() / 1000) + 100]);
    await mine();
    await mine();
    await env.sync();
    expect((await indexed())?.implementation).toBe(box1.toLowerCase());
    expect((await check(guid)).status).toBe("1");

    // Asked again, the new head's block reads it again.
    const again = (await submit(proxy)).result as string;
    await mine();
    await env.sync();
    expect((await check(again)).status).toBe("1");
    expect((await indexed())?.implementation).toBe(box2.toLowerCase());
  });

  it("answers Blockscout's failures in Etherscan's envelope", async () => {
    // A verified contract that is no proxy: looked at, nothing found.
    const guid = (await submit(box1)).result as string;
    await mine();
    await env.sync();
    expect(await check(guid)).toEqual({
      status: "0",
      message: "NOTOK",
      result: "A corresponding implementation contract was unfortunately not detected for the proxy address.",
    });
    // Not verified (an account without code; box2 is verified as box1's copy), malformed, unknown.
    expect(await submit(env.chain.accounts[1]!.address)).toEqual({
      status: "0",
      message: "NOTOK",
      result: "Smart-contract not found or is not verified",
    });
    expect((await submit("0x1234")).status).toBe("0");
    expect(await check("00ff")).toEqual({ status: "0", message: "NOTOK", result: "Unknown UID" });
    expect((await check("../etc")).result).toBe("Unknown UID");
    expect(
      (await env.apis.inject({ url: "/api?module=contract&action=checkproxyverification" })).json(),
    ).toEqual({
      status: "0",
      message: "NOTOK",
      result: "Missing guid field",
    });
  });
});
