import { encodeDeployData, encodeFunctionData, getContractAddress, type Hex, keccak256, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toBytea } from "../../src/db/bytes.js";
import type { Db } from "../../src/db/db.js";
import { activityContracts, deployActivityContracts, rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { explorerExtensions } from "../helpers/explorer-index.js";
import { createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";
import { deploy, invoke, send, tokenContracts } from "../helpers/tokens.js";

type Facts = { to_is_contract: boolean; creates_token: boolean; has_token_transfers: boolean };

async function facts(db: Db, hash: Hex): Promise<Facts> {
  const [r] = await db.query<Facts>(
    "select to_is_contract, creates_token, has_token_transfers from transactions where hash = $1",
    [toBytea(hash)],
  );
  return r!;
}

/**
 * The facts the type filters read that depend on later blocks (migration 100): a transaction to an address that
 * becomes a contract later (created there, or first seen as a token) turns into a contract call, a creation whose
 * token shows up later into a token creation, and a reorganisation that takes those blocks back undoes both; the
 * index then equals a clean one.
 */
describe("transaction facts that later blocks change", () => {
  let chain: TestChain;
  let url: string;
  const dbs: TestDb[] = [];
  beforeAll(async () => {
    chain = await startTestChain();
    url = chain.anvil.url;
  });
  afterAll(async () => {
    for (const t of dbs) await t.drop();
    await chain?.stop();
  });
  const db = async () => {
    const t = await createTestDb();
    dbs.push(t);
    return t.db;
  };

  it("a counterfactual address, a token seen after its creation, a token older than the index; a reorg undoes them", async () => {
    const k = await deployActivityContracts(url);
    await rpc(url, "evm_setAutomine", [true]);
    const c = activityContracts();
    const a = chain.accounts[1]!.address;
    // Created before the index starts, called without a token event, then seen as a token inside the index.
    const old = await deploy(url, a, "TestNft", ["Old", "O", ""]);
    const start = Number(await rpc<Hex>(url, "eth_blockNumber")) + 1;
    const salt = keccak256(toHex("later"));
    const init = encodeDeployData({ abi: c.Child!.abi, bytecode: c.Child!.bytecode, args: [7n] });
    const future = getContractAddress({ opcode: "CREATE2", from: k.factory, salt, bytecode: init });
    const paid = await rpc<Hex>(url, "eth_sendTransaction", [{ from: a, to: future, value: "0x5" }]);
    const t721 = tokenContracts().TestNft!;
    const nftTx = await send(url, {
      from: a,
      data: encodeDeployData({ abi: t721.abi, bytecode: t721.bytecode, args: ["Late", "L", ""] }),
    });
    const nft = (await rpc<{ contractAddress: Hex }>(url, "eth_getTransactionReceipt", [nftTx]))
      .contractAddress;
    const setBase = await invoke(url, a, old, "TestNft", "setBase", ["x"]);
    for (let i = 0; i < 6; i++) await rpc(url, "evm_mine");

    const full = await createTestIndexer(await db(), url, { batchSize: 4, extensions: explorerExtensions() });
    const fullDb = dbs[0]!.db;
    const fromStart = await createTestIndexer(await db(), url, {
      batchSize: 4,
      startBlock: start,
      extensions: explorerExtensions(),
    });
    const startDb = dbs[1]!.db;
    await indexToHead(full, fullDb, url);
    await indexToHead(fromStart, startDb, url);
    const none = { to_is_contract: false, creates_token: false, has_token_transfers: false };
    expect(await facts(fullDb, paid)).toEqual(none);
    expect(await facts(fullDb, nftTx)).toEqual(none);
    // Created in the index: a contract to the full index; the index starting later knows it only as a token.
    expect((await facts(fullDb, setBase)).to_is_contract).toBe(true);
    expect((await facts(startDb, setBase)).to_is_contract).toBe(false);
    const before = Number(await rpc<Hex>(url, "eth_blockNumber"));

    // Later blocks: the address is created, the late token mints, the old one too.
    await send(url, {
      from: a,
      to: k.factory,
      data: encodeFunctionData({ abi: c.Factory!.abi, functionName: "create2", args: [7n, salt] }),
    });
    const mint = await invoke(url, a, nft, "TestNft", "mint", [a, 1n]);
    await invoke(url, a, old, "TestNft", "mint", [a, 1n]);
    await indexToHead(full, fullDb, url);
    await indexToHead(fromStart, startDb, url);
    expect(await facts(fullDb, paid)).toEqual({ ...none, to_is_contract: true });
    expect(await facts(fullDb, nftTx)).toEqual({ ...none, creates_token: true });
    expect(await facts(fullDb, mint)).toEqual({ ...none, to_is_contract: true, has_token_transfers: true });
    expect((await facts(startDb, setBase)).to_is_contract).toBe(true);

    // A reorganisation takes those blocks back: the facts are as before.
    await rpc(url, "anvil_rollback", [Number(await rpc<Hex>(url, "eth_blockNumber")) - before]);
    await rpc(url, "evm_mine");
    await indexToHead(full, fullDb, url);
    await indexToHead(fromStart, startDb, url);
    expect(await facts(fullDb, paid)).toEqual(none);
    expect(await facts(fullDb, nftTx)).toEqual(none);
    expect((await facts(startDb, setBase)).to_is_contract).toBe(false);

    // And the same blocks again, then a clean index of the final chain: equal tables.
    await send(url, {
      from: a,
      to: k.factory,
      data: encodeFunctionData({ abi: c.Factory!.abi, functionName: "create2", args: [7n, salt] }),
    });
    await invoke(url, a, nft, "TestNft", "mint", [a, 2n]);
    await indexToHead(full, fullDb, url);
    const clean = await db();
    await indexToHead(await createTestIndexer(clean, url, { extensions: explorerExtensions() }), clean, url);
    const tables = ["transactions", "tokens", "contract_creations"];
    expect(await dumpTables(fullDb, tables)).toEqual(await dumpTables(clean, tables));
    expect(await facts(fullDb, paid)).toEqual({ ...none, to_is_contract: true });
    expect(await facts(fullDb, nftTx)).toEqual({ ...none, creates_token: true });
  });
});
