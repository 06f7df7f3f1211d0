import { EtherscanProvider, type Networkish } from "ethers6";
import { type Address, type Hex, toFunctionSelector } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpc, waitForReceipt } from "../helpers/activity.js";
import { build, deployData, versionFor } from "../helpers/verify-contracts.js";
import { type RpcWorld, startRpcWorld } from "./setup.js";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Counter {
    uint256 public count;
    event Bumped(uint256 count);
    function bump() external { count += 1; emit Bumped(count); }
}
`;

/** Sepolia's id: ethers 6's EtherscanProvider refuses chains outside its list (31337, anvil's default, is not in it). */
const CHAIN_ID = 11155111;
const ETHERSCAN_V2 = "https://api.etherscan.io/v2/api";

/**
 * ethers 6's EtherscanProvider, unchanged but for where it sends its requests: 6.17 builds every URL on Etherscan's
 * v2 host (getUrl, getPostUrl), so the subclass swaps that host for Lookout's `/api`; the query ethers writes
 * (`chainid`, `module`, `action`, its parameters, `apikey`) and its reading of the answers are its own.
 */
class LookoutEtherscan extends EtherscanProvider {
  constructor(
    network: Networkish,
    private readonly base: string,
  ) {
    super(network, "any-key");
  }
  override getUrl(module: string, params: Record<string, string>): string {
    return super.getUrl(module, params).replace(ETHERSCAN_V2, `${this.base}/api`);
  }
  override getPostUrl(): string {
    return super.getPostUrl().replace(ETHERSCAN_V2, `${this.base}/api`);
  }
}

type Failure = { code?: string; response?: { statusCode: number; bodyText: string } };

describe("ethers 6 EtherscanProvider against Lookout's /api (an anvil chain indexed, a contract verified)", () => {
  let w: RpcWorld;
  let p: LookoutEtherscan;
  let verified: Address;
  let unverified: Address;
  let abiLength: number;
  /** The URLs ethers requested, in order. */
  const sent: string[] = [];

  beforeAll(async () => {
    w = await startRpcWorld({ verification: true, chainId: CHAIN_ID });
    const v = w.verification!;
    const version = versionFor(v.compilers, "0.8.26");
    const built = await build(v.compilers, version, { "Counter.sol": SOURCE }, {});
    abiLength = built.Counter!.abi.length;
    const deployOne = async () => {
      const hash = await rpc<Hex>(w.url, "eth_sendTransaction", [
        { from: w.acct[0], data: deployData(built.Counter!), gas: "0x1c9c380" },
      ]);
      return (await waitForReceipt(w.url, hash)).contractAddress!.toLowerCase() as Address;
    };
    verified = await deployOne();
    unverified = await deployOne();
    await w.sync();
    const r = await w.app.inject({
      method: "POST",
      url: "/api?module=contract&action=verify",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        addressHash: verified,
        name: "Counter",
        compilerVersion: version,
        optimization: "false",
        contractSourceCode: SOURCE,
      }).toString(),
    });
    expect(r.json(), r.body).toMatchObject({ status: "1" });
    const base = await w.app.listen({ port: 0, host: "127.0.0.1" });
    p = new LookoutEtherscan(CHAIN_ID, base);
    p.on("debug", (e: { action: string; url?: string }) => {
      if (e.action === "sendRequest" && e.url) sent.push(e.url);
    });
  }, 300_000);
  afterAll(async () => {
    p?.destroy();
    await w?.stop();
  });

  /** The last request ethers sent, as module/action and the other parameters. */
  const lastQuery = () => Object.fromEntries(new URL(sent.at(-1)!).searchParams);

  it("getBalance (module=account&action=balance) equals the node's balance", async () => {
    for (const a of [w.acct[1]!, w.acct[3]!, "0x00000000000000000000000000000000000000aa"]) {
      expect(await p.getBalance(a)).toBe(BigInt(await rpc<Hex>(w.url, "eth_getBalance", [a, "latest"])));
      expect(lastQuery()).toMatchObject({ chainid: String(CHAIN_ID), module: "account", action: "balance" });
    }
  });

  it("getContract reads the verified ABI with getabi; an unverified contract is null", async () => {
    const c = await p.getContract(verified);
    expect(lastQuery()).toMatchObject({ module: "contract", action: "getabi" });
    // ethers sends the address checksummed; Lookout reads it whatever its case.
    expect(lastQuery().address?.toLowerCase()).toBe(verified);
    expect(c).not.toBeNull();
    expect(c!.interface.fragments).toHaveLength(abiLength);
    expect(c!.interface.getFunction("bump")?.selector).toBe(toFunctionSelector("bump()"));
    expect(c!.interface.getEvent("Bumped")).not.toBeNull();
    expect(await p.getContract(unverified)).toBeNull();
  });

  it("fetch: txlist and getLogs through the provider's own request and answer reading", async () => {
    const B = w.acct[1]!;
    const head = Number(await rpc<Hex>(w.url, "eth_blockNumber"));
    const expected: string[] = [];
    for (let n = 0; n <= head; n++) {
      const b = await rpc<{ transactions: Array<{ hash: string; from: string; to: string | null }> }>(
        w.url,
        "eth_getBlockByNumber",
        [`0x${n.toString(16)}`, true],
      );
      for (const t of b.transactions) if (t.from === B || t.to === B) expected.push(t.hash);
    }
    const list = (await p.fetch("account", { action: "txlist", address: B, sort: "asc" })) as Array<{
      hash: string;
    }>;
    expect(list.map((t) => t.hash)).toEqual(expected);
    const logs = (await p.fetch("logs", {
      action: "getLogs",
      fromBlock: 0,
      toBlock: "latest",
      address: w.coin,
    })) as Array<{ transactionHash: string; logIndex: string }>;
    const nodeLogs = await rpc<Array<{ transactionHash: string; logIndex: Hex }>>(w.url, "eth_getLogs", [
      { fromBlock: "0x0", toBlock: "latest", address: w.coin },
    ]);
    expect(logs.map((l) => [l.transactionHash, l.logIndex])).toEqual(
      nodeLogs.map((l) => [l.transactionHash, l.logIndex]),
    );
    // A list with nothing in it: ethers reads Blockscout's "No transactions found" (status "0") as an empty result.
    expect(
      await p.fetch("account", { action: "txlist", address: "0x00000000000000000000000000000000000000aa" }),
    ).toEqual([]);
  });

  it("getBlockNumber, getTransactionCount, getCode, getTransaction, call: module=proxy is Etherscan's, not Blockscout's: 400 Unknown module", async () => {
    const calls: Array<[string, () => Promise<unknown>]> = [
      ["eth_blockNumber", () => p.getBlockNumber()],
      ["eth_getTransactionCount", () => p.getTransactionCount(w.acct[1]!)],
      ["eth_getCode", () => p.getCode(verified)],
      ["eth_getTransactionByHash", () => p.getTransaction(w.forwardTx)],
      // POSTed (module and action in the form body).
      ["eth_call", () => p.call({ to: verified, data: toFunctionSelector("count()") })],
    ];
    for (const [action, run] of calls) {
      const err = (await run().then(
        () => null,
        (e: unknown) => e,
      )) as Failure | null;
      if (action !== "eth_call") expect(lastQuery()).toMatchObject({ module: "proxy", action });
      expect(err?.code).toBe("SERVER_ERROR");
      expect(err?.response?.statusCode).toBe(400);
      expect(JSON.parse(err!.response!.bodyText)).toEqual({
        status: "0",
        message: "Unknown module",
        result: null,
      });
    }
  });
});
