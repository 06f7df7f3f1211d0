import { toBytea, toByteaOrNull } from "../../../db/bytes.js";
import type { Queryable } from "../../../db/db.js";
import type { CoreRows } from "./derive.js";

/**
 * A list of hashes per row travels as one comma-separated text (unnest would flatten a 2-D bytea array);
 * `hexListToByteaArray` turns it back into bytea[] in SQL. Empty string = empty array, null = null.
 */
const hexList = (hashes: readonly string[]): string => hashes.map((h) => h.slice(2)).join(",");
const hexListToByteaArray = (column: string) =>
  `case when ${column} is null then null else array(select decode(e, 'hex') from unnest(string_to_array(${column}, ',')) with ordinality as u(e, o) order by o) end`;

const col = <T, R>(rows: readonly T[], f: (r: T) => R): R[] => rows.map(f);

/** Writes one batch of core rows with one multi-row `unnest` insert per table (inside the caller's transaction). */
export async function writeCoreRows(tx: Queryable, rows: CoreRows): Promise<void> {
  const { blocks, transactions, logs, creations } = rows;
  if (blocks.length) {
    await tx.query(
      `insert into blocks (number, hash, parent_hash, timestamp, miner, gas_used, gas_limit, base_fee_per_gas, size,
         transaction_count, nonce, difficulty, total_difficulty, extra_data, state_root, blob_gas_used, excess_blob_gas,
         uncles, withdrawals_count, transaction_fees, burnt_fees, priority_fees, internal_transactions_indexed)
       select n, h, p, to_timestamp(t), m, gu, gl, bf, s, tc, nonce, d, td, ed, sr, bgu, ebg, ${hexListToByteaArray("un")},
         wc, tf, bu, pf, ti
       from unnest($1::int8[], $2::bytea[], $3::bytea[], $4::int8[], $5::bytea[], $6::numeric[], $7::numeric[], $8::numeric[],
         $9::int8[], $10::int4[], $11::bytea[], $12::numeric[], $13::numeric[], $14::bytea[], $15::bytea[], $16::numeric[],
         $17::numeric[], $18::text[], $19::int4[], $20::numeric[], $21::numeric[], $22::numeric[], $23::bool[])
         as x(n, h, p, t, m, gu, gl, bf, s, tc, nonce, d, td, ed, sr, bgu, ebg, un, wc, tf, bu, pf, ti)`,
      [
        col(blocks, (b) => b.number),
        col(blocks, (b) => toBytea(b.hash)),
        col(blocks, (b) => toBytea(b.parentHash)),
        col(blocks, (b) => b.timestamp),
        col(blocks, (b) => toBytea(b.miner)),
        col(blocks, (b) => b.gasUsed),
        col(blocks, (b) => b.gasLimit),
        col(blocks, (b) => b.baseFeePerGas),
        col(blocks, (b) => b.size),
        col(blocks, (b) => b.transactionCount),
        col(blocks, (b) => toByteaOrNull(b.nonce)),
        col(blocks, (b) => b.difficulty),
        col(blocks, (b) => b.totalDifficulty),
        col(blocks, (b) => toByteaOrNull(b.extraData)),
        col(blocks, (b) => toByteaOrNull(b.stateRoot)),
        col(blocks, (b) => b.blobGasUsed),
        col(blocks, (b) => b.excessBlobGas),
        col(blocks, (b) => hexList(b.uncles)),
        col(blocks, (b) => b.withdrawalsCount),
        col(blocks, (b) => b.transactionFees),
        col(blocks, (b) => b.burntFees),
        col(blocks, (b) => b.priorityFees),
        col(blocks, (b) => b.tracesIndexed),
      ],
    );
  }
  if (transactions.length) {
    const t = transactions;
    await tx.query(
      `insert into transactions (hash, block_number, index, from_address, to_address, value, nonce, gas, gas_price,
         max_fee_per_gas, max_priority_fee_per_gas, type, input, status, gas_used, cumulative_gas_used,
         effective_gas_price, contract_address, max_fee_per_blob_gas, blob_gas_used, blob_gas_price,
         blob_versioned_hashes, block_hash, revert_reason)
       select h, bn, i, f, t, v, n, g, gp, mf, mp, ty, inp, st, gu, cgu, egp, ca, mfb, bgu, bgp,
         ${hexListToByteaArray("bvh")}, bh, rr
       from unnest($1::bytea[], $2::int8[], $3::int4[], $4::bytea[], $5::bytea[], $6::numeric[], $7::int8[],
         $8::numeric[], $9::numeric[], $10::numeric[], $11::numeric[], $12::int4[], $13::bytea[], $14::int2[],
         $15::numeric[], $16::numeric[], $17::numeric[], $18::bytea[], $19::numeric[], $20::numeric[], $21::numeric[],
         $22::text[], $23::bytea[], $24::text[])
         as x(h, bn, i, f, t, v, n, g, gp, mf, mp, ty, inp, st, gu, cgu, egp, ca, mfb, bgu, bgp, bvh, bh, rr)`,
      [
        col(t, (r) => toBytea(r.hash)),
        col(t, (r) => r.blockNumber),
        col(t, (r) => r.index),
        col(t, (r) => toBytea(r.from)),
        col(t, (r) => toByteaOrNull(r.to)),
        col(t, (r) => r.value),
        col(t, (r) => r.nonce),
        col(t, (r) => r.gas),
        col(t, (r) => r.gasPrice),
        col(t, (r) => r.maxFeePerGas),
        col(t, (r) => r.maxPriorityFeePerGas),
        col(t, (r) => r.type),
        col(t, (r) => toBytea(r.input)),
        col(t, (r) => r.status),
        col(t, (r) => r.gasUsed),
        col(t, (r) => r.cumulativeGasUsed),
        col(t, (r) => r.effectiveGasPrice),
        col(t, (r) => toByteaOrNull(r.contractAddress)),
        col(t, (r) => r.maxFeePerBlobGas),
        col(t, (r) => r.blobGasUsed),
        col(t, (r) => r.blobGasPrice),
        col(t, (r) => (r.blobVersionedHashes ? hexList(r.blobVersionedHashes) : null)),
        col(t, (r) => toBytea(r.blockHash)),
        col(t, (r) => r.revertReason),
      ],
    );
  }
  if (logs.length) {
    await tx.query(
      `insert into logs (block_number, log_index, transaction_hash, transaction_index, address, topic0, topic1, topic2, topic3, data)
       select * from unnest($1::int8[], $2::int4[], $3::bytea[], $4::int4[], $5::bytea[], $6::bytea[], $7::bytea[],
         $8::bytea[], $9::bytea[], $10::bytea[])`,
      [
        col(logs, (l) => l.blockNumber),
        col(logs, (l) => l.logIndex),
        col(logs, (l) => toBytea(l.transactionHash)),
        col(logs, (l) => l.transactionIndex),
        col(logs, (l) => toBytea(l.address)),
        col(logs, (l) => toByteaOrNull(l.topics[0])),
        col(logs, (l) => toByteaOrNull(l.topics[1])),
        col(logs, (l) => toByteaOrNull(l.topics[2])),
        col(logs, (l) => toByteaOrNull(l.topics[3])),
        col(logs, (l) => toBytea(l.data)),
      ],
    );
  }
  if (creations.length) {
    const c = creations;
    await tx.query(
      `insert into contract_creations (block_number, transaction_index, creation_index, address, creator,
         transaction_hash, kind, init_code, runtime_code)
       select * from unnest($1::int8[], $2::int4[], $3::int4[], $4::bytea[], $5::bytea[], $6::bytea[], $7::text[],
         $8::bytea[], $9::bytea[])`,
      [
        col(c, (r) => r.blockNumber),
        col(c, (r) => r.transactionIndex),
        col(c, (r) => r.creationIndex),
        col(c, (r) => toBytea(r.address)),
        col(c, (r) => toBytea(r.creator)),
        col(c, (r) => toBytea(r.transactionHash)),
        col(c, (r) => r.kind),
        col(c, (r) => toBytea(r.initCode)),
        col(c, (r) => toByteaOrNull(r.runtimeCode)),
      ],
    );
  }
}

/** Deletes every core row derived from blocks above `ancestor` (a reorganisation). */
export async function revertCoreRows(tx: Queryable, ancestor: number): Promise<void> {
  for (const table of ["contract_creations", "logs", "transactions", "blocks"]) {
    const column = table === "blocks" ? "number" : "block_number";
    await tx.query(`delete from ${table} where ${column} > $1`, [ancestor]);
  }
}
