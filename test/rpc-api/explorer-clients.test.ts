import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Abi, type Address, encodeFunctionData, type Hex, toFunctionSelector } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packagePath } from "../../src/util/package-root.js";
import { rpc, waitForReceipt } from "../helpers/activity.js";
import { runTool } from "../helpers/run-tool.js";
import { type ApisEnv, startApisEnv } from "../helpers/verification-apis.js";
import { build, deployData, standardJsonText, versionFor } from "../helpers/verify-contracts.js";

const CAST = packagePath("node_modules/@foundry-rs/cast-linux-amd64/bin/cast");

const SOURCES = {
  "src/Counter.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// A counter that anyone may bump.
contract Counter {
    uint256 public count;
    event Bumped(address indexed by, uint256 count);

    function bump(uint256 by) external returns (uint256) {
        count += by;
        emit Bumped(msg.sender, count);
        return count;
    }

    function reset() external {
        count = 0;
    }
}
`,
};
const SETTINGS = { optimizer: { enabled: true, runs: 200 } };

/**
 * Clients that read contracts from an explorer, unchanged, against Lookout over anvil: Foundry's `cast` (sources
 * and ABIs through the Etherscan-compatible /api), and the contract lists and legacy routes that share its data.
 */
describe.skipIf(!CAST)("explorer clients: cast source and interface, listcontracts, legacy routes", () => {
  let env: ApisEnv;
  let base: string;
  let home: string;
  let verified: Address;
  let unverified: Address;
  let abi: Abi;
  const get = async (url: string) => (await env.apis.inject(url)).json();
  /** `cast source` of an address against Lookout's /api. */
  const castSource = (address: Address) =>
    cast([
      "source",
      address,
      "--explorer-api-url",
      `${base}/api`,
      "--explorer-url",
      base,
      "--chain",
      String(env.chain.anvil.chainId),
      "-e",
      "any-key",
    ]);
  const cast = (args: string[], extraEnv: Record<string, string> = {}) =>
    runTool(CAST, args, {
      cwd: home,
      env: { HOME: home, NO_COLOR: "1", FOUNDRY_DISABLE_NIGHTLY_WARNING: "1", ...extraEnv },
      timeoutMs: 60_000,
    });

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "lookout-cast-home-"));
    env = await startApisEnv();
    const version = versionFor(env.compilers, "0.8.26");
    const built = await build(env.compilers, version, SOURCES, SETTINGS);
    abi = built.Counter!.abi;
    verified = (await env.deploy(deployData(built.Counter!))).toLowerCase() as Address;
    unverified = (await env.deploy(deployData(built.Counter!))).toLowerCase() as Address;
    const bump = await rpc<Hex>(env.chain.anvil.url, "eth_sendTransaction", [
      {
        from: env.chain.accounts[0]!.address,
        to: verified,
        data: encodeFunctionData({ abi, functionName: "bump", args: [5n] }),
      },
    ]);
    await waitForReceipt(env.chain.anvil.url, bump);
    await env.sync();
    const submit = await env.apis.inject({
      method: "POST",
      url: "/api",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        module: "contract",
        action: "verifysourcecode",
        contractaddress: verified,
        sourceCode: standardJsonText(SOURCES, SETTINGS),
        codeformat: "solidity-standard-json-input",
        contractname: "src/Counter.sol:Counter",
        compilerversion: version,
      }).toString(),
    });
    expect(submit.json().status).toBe("1");
    await env.jobs.idle();
    const status = await get(`/api?module=contract&action=checkverifystatus&guid=${submit.json().result}`);
    expect(status.result).toBe("Pass - Verified");
    await env.apis.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(env.apis.server.address() as { port: number }).port}`;
  }, 300_000);
  afterAll(async () => {
    await env?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("cast source prints the verified source from Lookout's /api", async () => {
    const r = await castSource(verified);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("contract Counter {");
    expect(r.out).toContain("function bump(uint256 by) external returns (uint256)");
  });

  it("cast source reads Blockscout's address-only item of an unverified contract as not verified", async () => {
    const item = await get(`/api?module=contract&action=getsourcecode&address=${unverified}`);
    expect(item).toEqual({ status: "1", message: "OK", result: [{ Address: unverified }] });
    const r = await castSource(unverified);
    expect(r.code, r.out).not.toBe(0);
    expect(r.out).toContain("Contract source code not verified");
  });

  it("cast interface builds the interface from the ABI Lookout serves, and it matches the node's code", async () => {
    const chainId = String(env.chain.anvil.chainId);
    writeFileSync(
      join(home, "foundry.toml"),
      `[profile.default]\n\n[etherscan]\nlocal = { key = "any-key", chain = ${chainId}, url = "${base}/api" }\n`,
    );
    const r = await cast(["interface", verified, "--chain", chainId]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/interface \w+ \{/);
    expect(r.out).toContain("function bump(uint256 by) external returns (uint256);");
    expect(r.out).toContain("event Bumped(address indexed by, uint256 count);");
    // The ABI's selectors are in the code the node holds.
    const code = await rpc<Hex>(env.chain.anvil.url, "eth_getCode", [verified, "latest"]);
    for (const f of abi.filter((x) => x.type === "function"))
      expect(code).toContain(toFunctionSelector(f).slice(2));
  });

  it("listcontracts: all, verified (with the verification window), unverified, empty; bad filter is 400", async () => {
    const all = await get("/api?module=contract&action=listcontracts");
    expect(all.status).toBe("1");
    const addresses = all.result.map((c: { Address: string }) => c.Address);
    expect(addresses).toEqual(expect.arrayContaining([verified, unverified]));
    expect(all.result.find((c: { Address: string }) => c.Address === unverified)).toEqual({
      Address: unverified,
      ABI: "Contract source code not verified",
    });
    const v = await get("/api?module=contract&action=listcontracts&filter=verified");
    expect(v.result.map((c: { ABI: string }) => ({ ...c, ABI: JSON.parse(c.ABI) }))).toEqual([
      {
        Address: verified,
        ABI: abi,
        ContractName: "Counter",
        CompilerVersion: versionFor(env.compilers, "0.8.26"),
        OptimizationUsed: "1",
      },
    ]);
    const now = Math.floor(Date.now() / 1000);
    const before = await get(
      `/api?module=contract&action=listcontracts&filter=1&verified_at_end_timestamp=${now - 3600}`,
    );
    expect(before.result).toEqual([]);
    const u = await get("/api?module=contract&action=listcontracts&filter=unverified");
    expect(u.result.map((c: { Address: string }) => c.Address)).toContain(unverified);
    expect(u.result.map((c: { Address: string }) => c.Address)).not.toContain(verified);
    expect((await get("/api?module=contract&action=listcontracts&filter=empty")).result).toEqual([]);
    const paged = await get("/api?module=contract&action=listcontracts&page=2&offset=1");
    expect(paged.result).toEqual([all.result[1]]);
    const bad = await env.apis.inject("/api?module=contract&action=listcontracts&filter=nope");
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      status: "0",
      message: "nope is not a valid value for `filter`. Please use one of: verified, unverified, 1, 2.",
      result: null,
    });
  });

  it("the method search finds a verified ABI's function by name", async () => {
    const found = await get("/api/v2/advanced-filters/methods?q=bump");
    expect(found).toEqual([{ method_id: toFunctionSelector("bump(uint256)"), name: "bump" }]);
  });

  it("/api/legacy routes answer as the RPC actions they bridge", async () => {
    const head = Number(await rpc<Hex>(env.chain.anvil.url, "eth_blockNumber"));
    const legacy = await get("/api/legacy/block/eth-block-number?id=7");
    expect(legacy).toEqual(await get("/api?module=block&action=eth_block_number&id=7"));
    expect(Number(legacy.result)).toBe(head);
    const block = await rpc<{ timestamp: Hex }>(env.chain.anvil.url, "eth_getBlockByNumber", [
      "latest",
      false,
    ]);
    const t = Number(block.timestamp);
    const byTime = await get(`/api/legacy/block/get-block-number-by-time?timestamp=${t}&closest=before`);
    expect(byTime).toEqual(
      await get(`/api?module=block&action=getblocknobytime&timestamp=${t}&closest=before`),
    );
    expect(byTime.status).toBe("1");
    const logs = await get(`/api/legacy/logs/get-logs?fromBlock=0&toBlock=latest&address=${verified}`);
    expect(logs).toEqual(
      await get(`/api?module=logs&action=getLogs&fromBlock=0&toBlock=latest&address=${verified}`),
    );
    expect(logs.result).toHaveLength(1);
  });
});
