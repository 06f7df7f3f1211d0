import { toBytea, toByteaOrNull } from "../../../db/bytes.js";
import type { Queryable } from "../../../db/db.js";
import type { BlockRow, CoreRows, CreationRow, LogRow, TransactionRow } from "./derive.js";
import { contractsAndTokens, markNewContracts, unmarkLostContracts } from "./transaction-facts.js";
import { unnestInsert } from "./unnest-insert.js";

/** A transaction row with the facts that depend on other rows (transaction-facts.ts). */
type StoredTransaction = TransactionRow & { toIsContract: boolean; createsToken: boolean };

/**
 * A list of hashes per row travels as one comma-separated text (unnest would flatten a 2-D bytea array);
 * `hexListToByteaArray` turns it back into bytea[] in SQL. Empty string = empty array, null = null.
 */
const hexList = (hashes: readonly string[]): string => hashes.map((h) => h.slice(2)).join(",");
const hexListToByteaArray = (column: string) =>
  `case when ${column} is null then null else array(select decode(e, 'hex') from unnest(string_to_array(${column}, ',')) with ordinality as u(e, o) order by o) end`;

const timestamp = (v: string) => `to_timestamp(${v})`;

const insertBlocks = unnestInsert<BlockRow>("blocks", [
  { column: "number", type: "int8", get: (b) => b.number },
  { column: "hash", type: "bytea", get: (b) => toBytea(b.hash) },
  { column: "parent_hash", type: "bytea", get: (b) => toBytea(b.parentHash) },
  { column: "timestamp", type: "int8", get: (b) => b.timestamp, sql: timestamp },
  { column: "miner", type: "bytea", get: (b) => toBytea(b.miner) },
  { column: "gas_used", type: "numeric", get: (b) => b.gasUsed },
  { column: "gas_limit", type: "numeric", get: (b) => b.gasLimit },
  { column: "base_fee_per_gas", type: "numeric", get: (b) => b.baseFeePerGas },
  { column: "size", type: "int8", get: (b) => b.size },
  { column: "transaction_count", type: "int4", get: (b) => b.transactionCount },
  { column: "nonce", type: "bytea", get: (b) => toByteaOrNull(b.nonce) },
  { column: "difficulty", type: "numeric", get: (b) => b.difficulty },
  { column: "total_difficulty", type: "numeric", get: (b) => b.totalDifficulty },
  { column: "extra_data", type: "bytea", get: (b) => toByteaOrNull(b.extraData) },
  { column: "state_root", type: "bytea", get: (b) => toByteaOrNull(b.stateRoot) },
  { column: "blob_gas_used", type: "numeric", get: (b) => b.blobGasUsed },
  { column: "excess_blob_gas", type: "numeric", get: (b) => b.excessBlobGas },
  { column: "uncles", type: "text", get: (b) => hexList(b.uncles), sql: hexListToByteaArray },
  { column: "withdrawals_count", type: "int4", get: (b) => b.withdrawalsCount },
  { column: "transaction_fees", type: "numeric", get: (b) => b.transactionFees },
  { column: "burnt_fees", type: "numeric", get: (b) => b.burntFees },
  { column: "priority_fees", type: "numeric", get: (b) => b.priorityFees },
  { column: "internal_transactions_indexed", type: "bool", get: (b) => b.tracesIndexed },
  { column: "blob_transaction_count", type: "int4", get: (b) => b.blobTransactionCount },
  { column: "blob_gas_price", type: "numeric", get: (b) => b.blobGasPrice },
]);

const insertTransactions = unnestInsert<StoredTransaction>("transactions", [
  { column: "hash", type: "bytea", get: (r) => toBytea(r.hash) },
  { column: "block_number", type: "int8", get: (r) => r.blockNumber },
  { column: "index", type: "int4", get: (r) => r.index },
  { column: "from_address", type: "bytea", get: (r) => toBytea(r.from) },
  { column: "to_address", type: "bytea", get: (r) => toByteaOrNull(r.to) },
  { column: "value", type: "numeric", get: (r) => r.value },
  { column: "nonce", type: "int8", get: (r) => r.nonce },
  { column: "gas", type: "numeric", get: (r) => r.gas },
  { column: "gas_price", type: "numeric", get: (r) => r.gasPrice },
  { column: "max_fee_per_gas", type: "numeric", get: (r) => r.maxFeePerGas },
  { column: "max_priority_fee_per_gas", type: "numeric", get: (r) => r.maxPriorityFeePerGas },
  { column: "type", type: "int4", get: (r) => r.type },
  { column: "input", type: "bytea", get: (r) => toBytea(r.input) },
  { column: "status", type: "int2", get: (r) => r.status },
  { column: "gas_used", type: "numeric", get: (r) => r.gasUsed },
  { column: "cumulative_gas_used", type: "numeric", get: (r) => r.cumulativeGasUsed },
  { column: "effective_gas_price", type: "numeric", get: (r) => r.effectiveGasPrice },
  { column: "contract_address", type: "bytea", get: (r) => toByteaOrNull(r.contractAddress) },
  { column: "max_fee_per_blob_gas", type: "numeric", get: (r) => r.maxFeePerBlobGas },
  { column: "blob_gas_used", type: "numeric", get: (r) => r.blobGasUsed },
  { column: "blob_gas_price", type: "numeric", get: (r) => r.blobGasPrice },
  {
    column: "blob_versioned_hashes",
    type: "text",
    get: (r) => (r.blobVersionedHashes ? hexList(r.blobVersionedHashes) : null),
    sql: hexListToByteaArray,
  },
  { column: "block_hash", type: "bytea", get: (r) => toBytea(r.blockHash) },
  { column: "revert_reason", type: "text", get: (r) => r.revertReason },
  { column: "unknown_members", type: "text", get: (r) => r.unknownMembers, sql: (v) => `${v}::jsonb` },
  { column: "has_token_transfers", type: "bool", get: (r) => r.hasTokenTransfers },
  { column: "to_is_contract", type: "bool", get: (r) => r.toIsContract },
  { column: "creates_token", type: "bool", get: (r) => r.createsToken },
]);

const insertLogs = unnestInsert<LogRow>("logs", [
  { column: "block_number", type: "int8", get: (l) => l.blockNumber },
  { column: "log_index", type: "int4", get: (l) => l.logIndex },
  { column: "transaction_hash", type: "bytea", get: (l) => toBytea(l.transactionHash) },
  { column: "transaction_index", type: "int4", get: (l) => l.transactionIndex },
  { column: "address", type: "bytea", get: (l) => toBytea(l.address) },
  { column: "topic0", type: "bytea", get: (l) => toByteaOrNull(l.topics[0]) },
  { column: "topic1", type: "bytea", get: (l) => toByteaOrNull(l.topics[1]) },
  { column: "topic2", type: "bytea", get: (l) => toByteaOrNull(l.topics[2]) },
  { column: "topic3", type: "bytea", get: (l) => toByteaOrNull(l.topics[3]) },
  { column: "data", type: "bytea", get: (l) => toBytea(l.data) },
]);

const insertCreations = unnestInsert<CreationRow>("contract_creations", [
  { column: "block_number", type: "int8", get: (c) => c.blockNumber },
  { column: "transaction_index", type: "int4", get: (c) => c.transactionIndex },
  { column: "creation_index", type: "int4", get: (c) => c.creationIndex },
  { column: "address", type: "bytea", get: (c) => toBytea(c.address) },
  { column: "creator", type: "bytea", get: (c) => toBytea(c.creator) },
  { column: "transaction_hash", type: "bytea", get: (c) => toBytea(c.transactionHash) },
  { column: "kind", type: "text", get: (c) => c.kind },
  { column: "init_code", type: "bytea", get: (c) => toBytea(c.initCode) },
  { column: "runtime_code", type: "bytea", get: (c) => toByteaOrNull(c.runtimeCode) },
]);

const lower = (a: string) => a.toLowerCase();

/**
 * Whether each transaction's recipient is a contract and its created contract a token, by the stored rows and the
 * batch's own creations (the tokens and proxies stages add what they find after it): one lookup per batch.
 */
async function withContractFacts(tx: Queryable, rows: CoreRows) {
  const created = new Set(rows.creations.map((c) => lower(c.address)));
  const asked = new Set<string>();
  for (const t of rows.transactions) {
    if (t.to) asked.add(lower(t.to));
    if (t.contractAddress) asked.add(lower(t.contractAddress));
  }
  const known = await contractsAndTokens(tx, [...asked].map(toBytea));
  const transactions: StoredTransaction[] = rows.transactions.map((t) => ({
    ...t,
    toIsContract: t.to !== null && (known.contracts.has(lower(t.to)) || created.has(lower(t.to))),
    createsToken: t.contractAddress !== null && known.tokens.has(lower(t.contractAddress)),
  }));
  return { transactions, fresh: [...created].filter((a) => !known.contracts.has(a)) };
}

/** Writes one batch of core rows with one multi-row `unnest` insert per table (inside the caller's transaction). */
export async function writeCoreRows(tx: Queryable, rows: CoreRows): Promise<void> {
  const { transactions, fresh } = await withContractFacts(tx, rows);
  await insertBlocks(tx, rows.blocks);
  await insertTransactions(tx, transactions);
  await insertLogs(tx, rows.logs);
  await insertCreations(tx, rows.creations);
  // An address called before it was created (a counterfactual CREATE2 address) is called as a contract now.
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
