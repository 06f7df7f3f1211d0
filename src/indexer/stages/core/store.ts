import { toBytea } from "../../../db/bytes.js";
import { CopyWriter } from "../../../db/copy-writer.js";
import { type Queryable, readAhead } from "../../../db/db.js";
import { type BulkColumn, bulkInsert, type CopyBytes, copyTypesOf, writeCopyRows } from "./bulk-insert.js";
import type { BlockRow, CoreRows, CreationRow, LogRow, TransactionRow } from "./derive.js";
import { contractsAndTokens, markNewContracts, unmarkLostContracts } from "./transaction-facts.js";

/** A transaction row with the facts that depend on other rows (transaction-facts.ts). */
type StoredTransaction = TransactionRow & { toIsContract: boolean; createsToken: boolean };

/**
 * A list of hashes per row: for `unnest` one comma-separated text (unnest would flatten a 2-D bytea array) that
 * SQL turns back into bytea[]; for COPY a bytea[] field. Empty = empty array, null = null.
 */
const hexList = (hashes: readonly string[]): string => hashes.map((h) => h.slice(2)).join(",");
const hexListToByteaArray = (column: string) =>
  `case when ${column} is null then null else array(select decode(e, 'hex') from unnest(string_to_array(${column}, ',')) with ordinality as u(e, o) order by o) end`;
function hashesColumn<T>(column: string, get: (row: T) => readonly string[] | null): BulkColumn<T> {
  return { column, type: "text", get, param: hexList, sql: hexListToByteaArray, stored: "bytea[]" };
}

/** Unix seconds into timestamptz. */
function unixColumn<T>(column: string, get: (row: T) => number): BulkColumn<T> {
  return { column, type: "int8", get, sql: (v) => `to_timestamp(${v})`, stored: "timestamptz" };
}

const insertBlocks = bulkInsert<BlockRow>("blocks", [
  { column: "number", type: "int8", get: (b) => b.number },
  { column: "hash", type: "bytea", get: (b) => b.hash },
  { column: "parent_hash", type: "bytea", get: (b) => b.parentHash },
  unixColumn("timestamp", (b) => b.timestamp),
  { column: "miner", type: "bytea", get: (b) => b.miner },
  { column: "gas_used", type: "numeric", get: (b) => b.gasUsed },
  { column: "gas_limit", type: "numeric", get: (b) => b.gasLimit },
  { column: "base_fee_per_gas", type: "numeric", get: (b) => b.baseFeePerGas },
  { column: "size", type: "int8", get: (b) => b.size },
  { column: "transaction_count", type: "int4", get: (b) => b.transactionCount },
  { column: "nonce", type: "bytea", get: (b) => b.nonce },
  { column: "difficulty", type: "numeric", get: (b) => b.difficulty },
  { column: "total_difficulty", type: "numeric", get: (b) => b.totalDifficulty },
  { column: "extra_data", type: "bytea", get: (b) => b.extraData },
  { column: "state_root", type: "bytea", get: (b) => b.stateRoot },
  { column: "blob_gas_used", type: "numeric", get: (b) => b.blobGasUsed },
  { column: "excess_blob_gas", type: "numeric", get: (b) => b.excessBlobGas },
  hashesColumn("uncles", (b) => b.uncles),
  { column: "withdrawals_count", type: "int4", get: (b) => b.withdrawalsCount },
  { column: "transaction_fees", type: "numeric", get: (b) => b.transactionFees },
  { column: "burnt_fees", type: "numeric", get: (b) => b.burntFees },
  { column: "priority_fees", type: "numeric", get: (b) => b.priorityFees },
  { column: "internal_transactions_indexed", type: "bool", get: (b) => b.tracesIndexed },
  { column: "blob_transaction_count", type: "int4", get: (b) => b.blobTransactionCount },
  { column: "blob_gas_price", type: "numeric", get: (b) => b.blobGasPrice },
]);

/** The transaction columns a block alone decides (all but the two facts from other rows, which come last). */
const transactionColumns: BulkColumn<TransactionRow>[] = [
  { column: "hash", type: "bytea", get: (r) => r.hash },
  { column: "block_number", type: "int8", get: (r) => r.blockNumber },
  { column: "index", type: "int4", get: (r) => r.index },
  { column: "from_address", type: "bytea", get: (r) => r.from },
  { column: "to_address", type: "bytea", get: (r) => r.to },
  { column: "value", type: "numeric", get: (r) => r.value },
  { column: "nonce", type: "int8", get: (r) => r.nonce },
  { column: "gas", type: "numeric", get: (r) => r.gas },
  { column: "gas_price", type: "numeric", get: (r) => r.gasPrice },
  { column: "max_fee_per_gas", type: "numeric", get: (r) => r.maxFeePerGas },
  { column: "max_priority_fee_per_gas", type: "numeric", get: (r) => r.maxPriorityFeePerGas },
  { column: "type", type: "int4", get: (r) => r.type },
  { column: "input", type: "bytea", get: (r) => r.input },
  { column: "status", type: "int2", get: (r) => r.status },
  { column: "gas_used", type: "numeric", get: (r) => r.gasUsed },
  { column: "cumulative_gas_used", type: "numeric", get: (r) => r.cumulativeGasUsed },
  { column: "effective_gas_price", type: "numeric", get: (r) => r.effectiveGasPrice },
  { column: "contract_address", type: "bytea", get: (r) => r.contractAddress },
  { column: "max_fee_per_blob_gas", type: "numeric", get: (r) => r.maxFeePerBlobGas },
  { column: "blob_gas_used", type: "numeric", get: (r) => r.blobGasUsed },
  { column: "blob_gas_price", type: "numeric", get: (r) => r.blobGasPrice },
  hashesColumn("blob_versioned_hashes", (r) => r.blobVersionedHashes),
  { column: "block_hash", type: "bytea", get: (r) => r.blockHash },
  { column: "revert_reason", type: "text", get: (r) => r.revertReason },
  {
    column: "unknown_members",
    type: "text",
    get: (r) => r.unknownMembers,
    sql: (v) => `${v}::jsonb`,
    stored: "jsonb",
  },
  { column: "has_token_transfers", type: "bool", get: (r) => r.hasTokenTransfers },
];
const insertTransactions = bulkInsert<StoredTransaction>("transactions", [
  ...transactionColumns,
  { column: "to_is_contract", type: "bool", get: (r) => r.toIsContract },
  { column: "creates_token", type: "bool", get: (r) => r.createsToken },
]);

const insertLogs = bulkInsert<LogRow>("logs", [
  { column: "block_number", type: "int8", get: (l) => l.blockNumber },
  { column: "log_index", type: "int4", get: (l) => l.logIndex },
  { column: "transaction_hash", type: "bytea", get: (l) => l.transactionHash },
  { column: "transaction_index", type: "int4", get: (l) => l.transactionIndex },
  { column: "address", type: "bytea", get: (l) => l.address },
  { column: "topic0", type: "bytea", get: (l) => l.topics[0] },
  { column: "topic1", type: "bytea", get: (l) => l.topics[1] },
  { column: "topic2", type: "bytea", get: (l) => l.topics[2] },
  { column: "topic3", type: "bytea", get: (l) => l.topics[3] },
  { column: "data", type: "bytea", get: (l) => l.data },
]);

const insertCreations = bulkInsert<CreationRow>("contract_creations", [
  { column: "block_number", type: "int8", get: (c) => c.blockNumber },
  { column: "transaction_index", type: "int4", get: (c) => c.transactionIndex },
  { column: "creation_index", type: "int4", get: (c) => c.creationIndex },
  { column: "address", type: "bytea", get: (c) => c.address },
  { column: "creator", type: "bytea", get: (c) => c.creator },
  { column: "transaction_hash", type: "bytea", get: (c) => c.transactionHash },
  { column: "kind", type: "text", get: (c) => c.kind },
  { column: "init_code", type: "bytea", get: (c) => c.initCode },
  { column: "runtime_code", type: "bytea", get: (c) => c.runtimeCode },
]);

const lower = (a: string) => a.toLowerCase();

/** COPY tuples still open at their end (fields to come): their bytes, and where each tuple ends in them. */
export type OpenLines = { bytes: CopyBytes; ends: number[] };

/**
 * Core rows' COPY tuples, encoded when the block arrives: blocks, logs and creations whole; each transaction's
 * tuple up to the two facts that depend on other rows (`transactionLines`, counting them), completed at write.
 */
export type EncodedCoreRows = {
  blocks: CopyBytes;
  transactionLines: OpenLines;
  logs: CopyBytes;
  creations: CopyBytes;
};

const transactionTypes = copyTypesOf(transactionColumns);

export function encodeCoreRows(rows: CoreRows): EncodedCoreRows {
  const w = new CopyWriter(rows.transactions.length * 512);
  const ends = writeCopyRows(w, transactionColumns, transactionTypes, rows.transactions, 2);
  return {
    blocks: insertBlocks.encode(rows.blocks),
    transactionLines: { bytes: w.bytes(), ends },
    logs: insertLogs.encode(rows.logs),
    creations: insertCreations.encode(rows.creations),
  };
}

/** The open lines of consecutive blocks as one. */
export function joinOpenLines(parts: readonly OpenLines[]): OpenLines {
  const ends: number[] = [];
  let offset = 0;
  for (const p of parts) {
    for (const e of p.ends) ends.push(e + offset);
    offset += p.bytes.byteLength;
  }
  return { bytes: Buffer.concat(parts.map((p) => p.bytes)), ends };
}

/** `lines` (one tuple per row) closed with each row's two facts, as bool fields. */
function closeLines<R>(
  lines: OpenLines,
  rows: readonly R[],
  first: (row: R) => boolean,
  second: (row: R) => boolean,
): Buffer {
  // Each bool field is 5 bytes (its length and its byte).
  const w = new CopyWriter(lines.bytes.byteLength + 10 * rows.length);
  let start = 0;
  rows.forEach((row, i) => {
    const end = lines.ends[i]!;
    w.append(lines.bytes.subarray(start, end));
    start = end;
    w.field(first(row), "bool");
    w.field(second(row), "bool");
  });
  return w.bytes();
}

/**
 * Whether each transaction's recipient is a contract and its created contract a token, by the stored rows and the
 * batch's own creations (the tokens and proxies stages add what they find after it): one lookup per batch, sent
 * before the batch's creations and awaited once the rows that do not depend on it are sent too.
 */
function contractFacts(tx: Queryable, rows: CoreRows) {
  const created = new Set(rows.creations.map((c) => lower(c.address)));
  const asked = new Set<string>();
  for (const t of rows.transactions) {
    if (t.to) asked.add(lower(t.to));
    if (t.contractAddress) asked.add(lower(t.contractAddress));
  }
  const lookup = readAhead(contractsAndTokens(tx, [...asked].map(toBytea)));
  return async () => {
    const known = await lookup;
    const toIsContract = (t: TransactionRow) =>
      t.to !== null && (known.contracts.has(lower(t.to)) || created.has(lower(t.to)));
    const createsToken = (t: TransactionRow) =>
      t.contractAddress !== null && known.tokens.has(lower(t.contractAddress));
    return { toIsContract, createsToken, fresh: [...created].filter((a) => !known.contracts.has(a)) };
  };
}

/**
 * Writes one batch of core rows, one COPY (or multi-row insert) per table, inside the caller's transaction;
 * `encoded`: their COPY tuples built ahead (encodeCoreRows of the same rows), so only the two facts are added here.
 */
export async function writeCoreRows(tx: Queryable, rows: CoreRows, encoded?: EncodedCoreRows): Promise<void> {
  const factsOf = contractFacts(tx, rows);
  if (encoded && tx.copyFrom) {
    await insertBlocks.writeEncoded(tx, rows.blocks, encoded.blocks);
    await insertLogs.writeEncoded(tx, rows.logs, encoded.logs);
    await insertCreations.writeEncoded(tx, rows.creations, encoded.creations);
    const facts = await factsOf();
    const tuples = closeLines(
      encoded.transactionLines,
      rows.transactions,
      facts.toIsContract,
      facts.createsToken,
    );
    await tx.copyFrom("transactions", insertTransactions.columns, tuples);
    await markFresh(tx, rows, facts.fresh);
    return;
  }
  const facts = await factsOf();
  await insertBlocks(tx, rows.blocks);
  await insertTransactions(
    tx,
    rows.transactions.map((t) => ({
      ...t,
      toIsContract: facts.toIsContract(t),
      createsToken: facts.createsToken(t),
    })),
  );
  await insertLogs(tx, rows.logs);
  await insertCreations(tx, rows.creations);
  await markFresh(tx, rows, facts.fresh);
}

/** An address called before it was created (a counterfactual CREATE2 address) is called as a contract now. */
async function markFresh(tx: Queryable, rows: CoreRows, fresh: readonly string[]): Promise<void> {
  if (fresh.length && rows.blocks.length)
    await markNewContracts(tx, fresh.map(toBytea), rows.blocks[0]!.number);
}

/** Deletes every core row derived from blocks above `ancestor` (a reorganisation). */
export async function revertCoreRows(tx: Queryable, ancestor: number): Promise<void> {
  const uncreated = await tx.query<{ address: Uint8Array }>(
    "delete from contract_creations where block_number > $1 returning address",
    [ancestor],
  );
  for (const table of ["logs", "transactions", "blocks"]) {
    const column = table === "blocks" ? "number" : "block_number";
    await tx.query(`delete from ${table} where ${column} > $1`, [ancestor]);
  }
  await unmarkLostContracts(
    tx,
    uncreated.map((r) => r.address),
  );
}
