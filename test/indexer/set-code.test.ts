import { Value } from "@sinclair/typebox/value";
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  parseEther,
  type SignedAuthorization,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TransactionSchema } from "../../src/explorer/transaction/schema.js";
import { authorizationsExtension } from "../../src/indexer/stages/authorizations/extension.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { blobsExtension } from "../../src/indexer/stages/blobs/extension.js";
import { createProxiesExtension } from "../../src/indexer/stages/proxies/extension.js";
import { rpc, waitForReceipt } from "../helpers/activity.js";
import { createTestDb } from "../helpers/db.js";
import { createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";
import { balanceRows, wrongRows } from "../helpers/node-balances.js";
import { startVerifierEnv, type VerifierEnv } from "../helpers/verify.js";
import { build, deployData, standardJsonText, versionFor } from "../helpers/verify-contracts.js";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Delegate {
    event Pinged(address indexed self, address indexed caller, uint256 x);
    function ping(uint256 x) external payable { emit Pinged(address(this), msg.sender, x); }
    receive() external payable {}
}
`;

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const ZERO = "0x0000000000000000000000000000000000000000";
const stages = () => [
  coinBalanceExtension(),
  currentBalancesExtension(),
  createProxiesExtension(),
  authorizationsExtension(),
  blobsExtension(),
];
const TABLES = ["transaction_authorizations", "address_proxies", "coin_balance_changes"];

/**
 * EIP-7702 on a real anvil (`--hardfork prague`), authorizations signed with viem's signAuthorization: each one is
 * judged as the node executed it (its code and nonce afterwards), the delegating EOA shows as Blockscout shows it,
 * calls to it are decoded with the delegate's verified ABI, and a reorg takes a delegation change back.
 */
describe("EIP-7702 set-code transactions", () => {
  let env: VerifierEnv;
  let url: string;
  let chainId: number;
  let delegate: Address;
  const eoaKey = generatePrivateKey();
  const eoa = privateKeyToAccount(eoaKey);
  const E = eoa.address.toLowerCase() as Address;
  const hashes: Record<string, Hex> = {};
  let sponsor: ReturnType<typeof createWalletClient>;
  let self: ReturnType<typeof createWalletClient>;

  const nonceOf = async (a: Address, tag: Hex | "latest" = "latest") =>
    Number(BigInt(await rpc<Hex>(url, "eth_getTransactionCount", [a, tag])));
  const codeOf = (a: Address, tag: Hex | "latest" = "latest") => rpc<Hex>(url, "eth_getCode", [a, tag]);
  const sign = (o: { address: Address; chainId: number; nonce: number }) =>
    sponsor.signAuthorization({
      account: eoa,
      contractAddress: o.address,
      chainId: o.chainId,
      nonce: o.nonce,
    });
  const sendSetCode = async (
    from: ReturnType<typeof createWalletClient>,
    authorizationList: SignedAuthorization[],
    data: Hex = "0x",
  ) => {
    const hash = await from.sendTransaction({
      account: from.account!,
      chain: env.chain.chain,
      to: E,
      data,
      authorizationList,
      gas: 300_000n,
    });
    await waitForReceipt(url, hash);
    return hash;
  };
  const get = async (path: string) => {
    const r = await env.app.inject({ url: path });
    return { status: r.statusCode, body: r.json() as any };
  };
  const verdicts = async (hash: Hex) => {
    const t = await get(`/api/v2/transactions/${hash}`);
    expect(t.status).toBe(200);
    expect([...Value.Errors(TransactionSchema, t.body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
    return t.body.authorization_list as Array<Record<string, unknown>>;
  };

  beforeAll(async () => {
    env = await startVerifierEnv({ hardfork: "prague", extensions: stages });
    url = env.chain.anvil.url;
    chainId = env.chain.anvil.chainId;
    const version = versionFor(env.compilers, "0.8.26");
    const built = await build(env.compilers, version, { "src/Delegate.sol": SOURCE }, {});
    delegate = (await env.deploy(deployData(built.Delegate!))).toLowerCase() as Address;
    const verified = await env.post("/api/v1/solidity/sources:verify-standard-json", {
      contracts: [{ chainId: String(chainId), address: delegate }],
      compiler: version,
      input: standardJsonText({ "src/Delegate.sol": SOURCE }, {}),
    });
    expect(verified.body.contractVerificationResults.items[0].status).toBe("FULLY_VERIFIED");
    sponsor = createWalletClient({
      account: env.chain.accounts[1]!,
      chain: env.chain.chain,
      transport: http(url),
    });
    self = createWalletClient({ account: eoa, chain: env.chain.chain, transport: http(url) });
    // The EOA gets coins to pay for its own transactions.
    const fund = await sponsor.sendTransaction({
      account: env.chain.accounts[1]!,
      chain: env.chain.chain,
      to: E,
      value: parseEther("2"),
    });
    await waitForReceipt(url, fund);

    // 1. Sponsored: a valid delegation, one for another chain and one with a wrong nonce, in one list, then a call
    //    to the EOA running the delegate's code.
    const n0 = await nonceOf(E);
    const valid = await sign({ address: delegate, chainId, nonce: n0 });
    const otherChain = await sign({ address: delegate, chainId: chainId + 1, nonce: n0 + 1 });
    const wrongNonce = await sign({ address: delegate, chainId, nonce: n0 + 5 });
    // The malleable twin of a valid signature (s > n/2): it recovers the same key, yet EIP-7702 refuses it.
    const twin = await sign({ address: ZERO, chainId, nonce: n0 + 1 });
    const highS = {
      ...twin,
      s: `0x${(N - BigInt(twin.s)).toString(16).padStart(64, "0")}` as Hex,
      yParity: 1 - twin.yParity!,
    };
    hashes.sponsored = await sendSetCode(
      sponsor,
      [valid, otherChain, wrongNonce, highS],
      encodeFunctionData({ abi: built.Delegate!.abi, functionName: "ping", args: [7n] }),
    );
    // 2. Self-sponsored: the EOA sends it, so its authorization must carry its nonce + 1 (the sender's nonce moves
    //    first); a chain id of 0 is valid on any chain.
    const n1 = await nonceOf(E);
    hashes.self = await sendSetCode(self, [await sign({ address: delegate, chainId: 0, nonce: n1 + 1 })]);
    // 3. A plain call to the delegated EOA.
    hashes.call = await sponsor.sendTransaction({
      account: env.chain.accounts[1]!,
      chain: env.chain.chain,
      to: E,
      data: encodeFunctionData({ abi: built.Delegate!.abi, functionName: "ping", args: [9n] }),
      value: 1000n,
    });
    await waitForReceipt(url, hashes.call);
    await env.sync();
  }, 180_000);

  afterAll(async () => {
    await env?.stop();
  });

  it("judges every authorization as the node executed it", async () => {
    const sponsored = await verdicts(hashes.sponsored!);
    expect(sponsored.map((a) => a.status)).toEqual([
      "ok",
      "invalid_chain_id",
      "invalid_nonce",
      "invalid_signature",
    ]);
    expect(sponsored[0]).toMatchObject({
      address_hash: getAddress(delegate),
      authority: getAddress(E),
      chain_id: chainId,
      nonce: 0,
    });
    expect(sponsored[1]).toMatchObject({ chain_id: chainId + 1, authority: getAddress(E) });
    // Recovered all the same, though the protocol refuses the signature.
    expect(sponsored[3]!.authority).toBeNull();
    const [self1] = await verdicts(hashes.self!);
    expect(self1).toMatchObject({ status: "ok", chain_id: 0, authority: getAddress(E) });
    // The node agrees: only the two valid ones moved the EOA's nonce (besides its own transaction), and its code
    // points at the delegate.
    const block = (await rpc<{ blockNumber: Hex }>(url, "eth_getTransactionReceipt", [hashes.sponsored]))
      .blockNumber;
    expect(await nonceOf(E, block)).toBe(1);
    expect(await codeOf(E, block)).toBe(`0xef0100${delegate.slice(2)}`);
    const selfBlock = (await rpc<{ blockNumber: Hex }>(url, "eth_getTransactionReceipt", [hashes.self]))
      .blockNumber;
    expect(await nonceOf(E, selfBlock)).toBe(3);
    // Lists carry no authorization list, as Blockscout's.
    const list = await get(`/api/v2/addresses/${E}/transactions`);
    expect(list.body.items.every((t: any) => t.authorization_list.length === 0)).toBe(true);
    expect(list.body.items.find((t: any) => t.hash === hashes.self)).toMatchObject({ type: 4 });
  });

  it("shows the delegating EOA as Blockscout does, and decodes calls to it with the delegate's ABI", async () => {
    const a = await get(`/api/v2/addresses/${E}`);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      hash: getAddress(E),
      is_contract: true,
      proxy_type: "eip7702",
      implementations: [{ address_hash: getAddress(delegate), name: "Delegate" }],
      // Blockscout counts a delegation to a verified contract as verified.
      is_verified: true,
    });
    // The code tab: the delegation designation as the EOA's code, the delegate as implementation.
    const sc = await get(`/api/v2/smart-contracts/${E}`);
    expect(sc.status).toBe(200);
    expect(sc.body).toMatchObject({
      deployed_bytecode: `0xef0100${delegate.slice(2)}`,
      is_verified: false,
      proxy_type: "eip7702",
      implementations: [{ address_hash: getAddress(delegate), name: "Delegate" }],
    });
    const t = await get(`/api/v2/transactions/${hashes.call}`);
    expect(t.body.to).toMatchObject({ hash: getAddress(E), proxy_type: "eip7702" });
    expect(t.body.decoded_input).toMatchObject({
      method_call: "ping(uint256 x)",
      parameters: [{ name: "x", type: "uint256", value: "9" }],
    });
    expect(t.body.method).toBe("ping");
    // The emitted log is decoded against the delegate's ABI too.
    const logs = await get(`/api/v2/transactions/${hashes.call}/logs`);
    expect(logs.body.items[0].decoded?.method_call).toMatch(/^Pinged\(/);
  });

  it("keeps coin balances equal to the node's", async () => {
    expect(await wrongRows(url, await balanceRows(env.db.db))).toEqual([]);
  });

  it("takes a delegation change back on a reorg, as a clean index of the new chain has it", async () => {
    const snapshot = await rpc<Hex>(url, "evm_snapshot");
    // The revocation (delegate = zero address), indexed, then replaced by a longer chain without it.
    const revoke = await sendSetCode(self, [
      await sign({ address: ZERO, chainId, nonce: (await nonceOf(E)) + 1 }),
    ]);
    await env.sync();
    expect(await codeOf(E)).toBe("0x");
    const gone = await get(`/api/v2/addresses/${E}`);
    expect(gone.body).toMatchObject({ is_contract: false, proxy_type: null, implementations: [] });
    expect((await get(`/api/v2/smart-contracts/${E}`)).status).toBe(404);
    expect((await verdicts(revoke))[0]).toMatchObject({ status: "ok", address_hash: ZERO });

    await rpc(url, "evm_revert", [snapshot]);
    await rpc(url, "anvil_mine", ["0x3"]);
    await env.sync();
    const back = await get(`/api/v2/addresses/${E}`);
    expect(back.body).toMatchObject({ is_contract: true, proxy_type: "eip7702" });
    expect((await get(`/api/v2/transactions/${revoke}`)).status).toBe(404);

    const clean = await createTestDb();
    try {
      const indexer = await createTestIndexer(clean.db, url, { extensions: stages() });
      await indexToHead(indexer, clean.db, url);
      expect(await dumpTables(env.db.db, TABLES)).toEqual(await dumpTables(clean.db, TABLES));
    } finally {
      await clean.drop();
    }
  });
});
