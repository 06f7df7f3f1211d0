import type { Address, Hash, Hex } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import type { Db, Queryable } from "../../src/db/db.js";
import type { CoreRows } from "../../src/indexer/stages/core/derive.js";
import { writeCoreRows } from "../../src/indexer/stages/core/store.js";
import type { InternalTransactionRow } from "../../src/indexer/stages/internal-transactions/derive.js";
import { writeInternalTransactions } from "../../src/indexer/stages/internal-transactions/store.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { CORE_TABLES, dumpTables } from "../helpers/indexer.js";

const TABLES = [...CORE_TABLES, "internal_transactions"];
const h = (n: number, bytes = 32) => `0x${n.toString(16).padStart(bytes * 2, "0")}` as Hash;
const a = (n: number) => h(n, 20) as Address;

/** Rows with every kind of value the COPY text must carry: nulls, empty arrays, free text with COPY's delimiters. */
function rows(): { core: CoreRows; internal: InternalTransactionRow[] } {
  const core: CoreRows = { blocks: [], transactions: [], logs: [], creations: [] };
  const internal: InternalTransactionRow[] = [];
  for (let b = 1; b <= 3; b++) {
    core.blocks.push({
      number: b,
      hash: h(1000 + b),
      parentHash: h(1000 + b - 1),
      timestamp: 1_700_000_000 + b * 12,
      miner: a(7),
      gasUsed: "21000",
      gasLimit: "30000000",
      baseFeePerGas: b === 1 ? null : "1000000007",
      size: b === 2 ? null : 1234,
      transactionCount: 2,
      nonce: b === 1 ? "0x0000000000000042" : null,
      difficulty: "0",
      totalDifficulty: b === 3 ? null : "123456789012345678901234567890",
      extraData: b === 1 ? "0x" : "0xdeadbeef",
      stateRoot: h(5000 + b),
      blobGasUsed: null,
      excessBlobGas: "0",
      uncles: b === 2 ? [h(1), h(2)] : [],
      withdrawalsCount: b === 3 ? 0 : null,
      transactionFees: "42",
      burntFees: null,
      priorityFees: "0",
      blobTransactionCount: b === 3 ? 1 : 0,
      blobGasPrice: b === 3 ? "1" : null,
      tracesIndexed: b !== 1,
    });
    for (let i = 0; i < 2; i++) {
      const hash = h(b * 100 + i);
      core.transactions.push({
        hash,
        blockNumber: b,
        index: i,
        from: a(b * 10 + i),
        to: i === 1 ? null : a(99),
        value: "115792089237316195423570985008687907853269984665640564039457584007913129639935",
        nonce: i,
        gas: "21000",
        gasPrice: "1",
        maxFeePerGas: i ? "2" : null,
        maxPriorityFeePerGas: null,
        type: b === 3 && i === 0 ? 3 : 2,
        input: i ? "0x6080604052" : "0x",
        status: b === 2 && i === 0 ? 0 : 1,
        gasUsed: "21000",
        cumulativeGasUsed: String(21000 * (i + 1)),
        effectiveGasPrice: null,
        contractAddress: i === 1 ? a(500 + b) : null,
        maxFeePerBlobGas: null,
        blobGasUsed: null,
        blobGasPrice: null,
        blobVersionedHashes: b === 3 && i === 0 ? [h(77), h(78)] : b === 2 ? [] : null,
        blockHash: h(1000 + b),
        revertReason: b === 2 && i === 0 ? "0x08c379a0" : null,
        unknownMembers:
          b === 1 && i === 0
            ? JSON.stringify({ memo: 'tab\there, newline\nthere, back\\slash, "quoted", \\N, ünïcødé' })
            : null,
        hasTokenTransfers: i === 0,
      });
      core.logs.push({
        blockNumber: b,
        logIndex: i,
        transactionHash: hash,
        transactionIndex: i,
        address: a(99),
        topics: [h(1), i ? null : h(2), null, null],
        data: i ? "0x" : "0x0102",
      });
      internal.push({
        blockNumber: b,
        transactionIndex: i,
        index: 1,
        transactionHash: hash,
        type: i ? "create" : "call",
        callType: i ? null : "delegatecall",
        from: a(99),
        to: i ? null : a(98),
        createdContract: i ? a(600 + b) : null,
        value: "0",
        gas: null,
        gasUsed: "1",
        input: i ? "0x60" : null,
        output: null,
        error: b === 2 ? "execution reverted\twith\\odd text" : null,
        traceAddress: i ? [] : [0, 12, 3],
        blockHash: h(1000 + b),
      });
    }
    const creator = core.transactions[core.transactions.length - 1]!;
    core.creations.push({
      blockNumber: b,
      transactionIndex: 1,
      creationIndex: 0,
      address: creator.contractAddress!,
      creator: creator.from,
      transactionHash: creator.hash,
      kind: "transaction",
      initCode: "0x6080604052" as Hex,
      runtimeCode: b === 1 ? null : "0x00",
    });
  }
  return { core, internal };
}

/** The same connection without `copyFrom`: the writers fall back to their `unnest` inserts. */
const withoutCopy = (tx: Queryable): Queryable => ({
  query: (sql, params, options) => tx.query(sql, params, options),
  exec: (sql) => tx.exec(sql),
});

/**
 * The indexer's bulk writes go in by COPY where the driver can (both drivers here) and by `unnest` where a
 * wrapper hides it: the tables must hold exactly the same values either way.
 */
describe("bulk inserts: COPY and unnest store the same rows", () => {
  const dbs: TestDb[] = [];
  afterAll(async () => {
    for (const t of dbs) await t.drop();
  });
  const write = async (db: Db, copy: boolean) => {
    const { core, internal } = rows();
    await db.transaction(async (tx) => {
      const q = copy ? tx : withoutCopy(tx);
      await writeCoreRows(q, core);
      await writeInternalTransactions(q, internal);
    });
    return dumpTables(db, TABLES);
  };

  it("by COPY and by unnest", async () => {
    const byCopy = await createTestDb();
    dbs.push(byCopy);
    const byUnnest = await createTestDb();
    dbs.push(byUnnest);
    expect(byCopy.db.copyFrom).toBeTypeOf("function");
    const copied = await write(byCopy.db, true);
    const unnested = await write(byUnnest.db, false);
    expect(copied.transactions).toHaveLength(6);
    expect(copied.internal_transactions).toHaveLength(6);
    expect(copied).toEqual(unnested);
    const [odd] = await byCopy.db.query<{ memo: string; uncles: number; trace: string }>(
      `select t.unknown_members->>'memo' as memo,
         (select cardinality(uncles) from blocks where number = 2) as uncles,
         (select trace_address::text from internal_transactions where block_number = 1 and transaction_index = 0) as trace
       from transactions t where t.unknown_members is not null`,
    );
    expect(odd).toEqual({
      memo: 'tab\there, newline\nthere, back\\slash, "quoted", \\N, ünïcødé',
      uncles: 2,
      trace: "{0,12,3}",
    });
  });

  it("a failing COPY fails the batch transaction, which rolls back", async () => {
    const t = await createTestDb();
    dbs.push(t);
    const { core } = rows();
    await expect(
      t.db.transaction(async (tx) => {
        await writeCoreRows(tx, core);
        await writeCoreRows(tx, { ...core, blocks: [], creations: [], transactions: [] }); // logs again: duplicate key
      }),
    ).rejects.toThrow();
    const [n] = await t.db.query<{ n: number }>("select count(*)::int as n from blocks");
    expect(n!.n).toBe(0);
    // The connection is usable again.
    await write(t.db, true);
  });
});
