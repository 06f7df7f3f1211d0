import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectCapabilities, type NodeCapabilities } from "../../src/chain/capabilities.js";
import { createRpc, type Rpc } from "../../src/chain/rpc.js";
import { fetchForStages } from "../../src/indexer/pipeline/extension.js";
import { createProxiesExtension } from "../../src/indexer/stages/proxies/extension.js";
import type { CompilerRegistry } from "../../src/verifier/compilers/index.js";
import { rpc, waitForReceipt } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { offlineCompilers } from "../helpers/compilers.js";
import { build, deployData, versionFor } from "../helpers/verify-contracts.js";

// Three contracts created by transactions, each pointing at the same target: a getter named as EIP-897's, a
// fallback that answers every call with the target as a word (no implementation() of its own), and the EIP-1967
// slot written by the constructor.
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Getter897 {
    address public implementation;
    constructor(address i) { implementation = i; }
}
contract EchoFallback {
    address private target;
    constructor(address t) { target = t; }
    fallback(bytes calldata) external returns (bytes memory) { return abi.encode(target); }
}
contract Slot1967 {
    constructor(address i) {
        assembly { sstore(0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc, i) }
    }
}
`;
const TARGET = "0x00000000000000000000000000000000000a11ce" as Address;

describe("proxy detection at a contract's creation", () => {
  let chain: TestChain;
  let compilers: CompilerRegistry;
  let caps: NodeCapabilities;
  let base: Rpc;
  const created: Record<string, { address: Address; block: number }> = {};

  beforeAll(async () => {
    chain = await startTestChain();
    compilers = await offlineCompilers();
    const built = await build(compilers, versionFor(compilers, "0.8.26"), { "P.sol": SOURCE }, {});
    base = createRpc({ url: chain.anvil.url, batchSize: 10, timeoutMs: 30_000, retries: 1 });
    caps = await detectCapabilities(base, { traces: "auto" });
    for (const name of ["Getter897", "EchoFallback", "Slot1967"]) {
      const hash = await rpc<Hex>(chain.anvil.url, "eth_sendTransaction", [
        { from: chain.accounts[0]!.address, data: deployData(built[name]!, [TARGET]) },
      ]);
      const receipt = await waitForReceipt<{ contractAddress: Address; blockNumber: Hex }>(
        chain.anvil.url,
        hash,
      );
      created[name] = {
        address: receipt.contractAddress.toLowerCase() as Address,
        block: Number(receipt.blockNumber),
      };
    }
  }, 120_000);
  afterAll(async () => {
    await compilers?.close?.();
    await chain?.stop();
  });

  /** The stage's result for the block that created `name`, and the node's calls it cost by method. */
  async function detect(name: string) {
    const calls: Record<string, number> = {};
    const counted: Rpc = {
      ...base,
      request: (method, params) => {
        calls[method] = (calls[method] ?? 0) + 1;
        return base.request(method, params);
      },
    };
    const { address, block } = created[name]!;
    const fetched = await fetchForStages(counted, block, caps, [createProxiesExtension()]);
    const found = (fetched.extra.proxies as Array<{ address: Address; code?: Hex; info: unknown }>).find(
      (c) => c.address === address,
    );
    return { found, calls };
  }

  it("reads EIP-897's getter where the created code has its selector", async () => {
    const { found, calls } = await detect("Getter897");
    expect(found?.code).toMatch(/^0x[0-9a-f]+$/);
    expect(found?.info).toEqual({ proxyType: "eip897", implementation: TARGET });
    expect(calls.eth_call).toBe(1);
  });

  it("does not call a created contract without the getter: a fallback answering every call is no proxy", async () => {
    // Asked, this contract answers implementation() with the target as a word: the call is what is left out.
    const answer = await rpc<Hex>(chain.anvil.url, "eth_call", [
      { to: created.EchoFallback!.address, data: "0x5c60da1b" },
    ]);
    expect(answer.toLowerCase()).toContain(TARGET.slice(2));
    const { found, calls } = await detect("EchoFallback");
    expect(found).toBeDefined();
    expect(found?.info).toBeNull();
    expect(calls.eth_call).toBeUndefined();
    expect(calls.eth_getStorageAt).toBe(2);
  });

  it("still reads the EIP-1967 slot of a created contract without the getter", async () => {
    const { found, calls } = await detect("Slot1967");
    expect(found?.info).toEqual({ proxyType: "eip1967", implementation: TARGET });
    expect(calls.eth_call).toBeUndefined();
  });
});
