import { toBytea, toByteaOrNull } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { CoreRows } from "../derive/core-rows.js";

const col = <T, R>(rows: readonly T[], f: (r: T) => R): R[] => rows.map(f);

/** Writes one batch of core rows with one multi-row `unnest` insert per table (inside the caller's transaction). */
export async function writeCoreRows(tx: Queryable, rows: CoreRows): Promise<void> {
  const { blocks, transactions, logs, creations } = rows;
  if (blocks.length) {
    await tx.query(
      `insert into blocks (number, hash, parent_hash, timestamp, miner, gas_used, gas_limit, base_fee_per_gas, size, transaction_count)
       select n, h, p, to_timestamp(t), m, gu, gl, bf, s, tc
       from unnest($1::int8[], $2::bytea[], $3::bytea[], $4::int8[], $5::bytea[], $6::numeric[], $7::numeric[], $8::numeric[], $9::int8[], $10::int4[])
         as x(n, h, p, t, m, gu, gl, bf, s, tc)`,
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
      ],
    );
  }
  if (transactions.length) {
    const t = transactions;
    await tx.query(
      `insert into transactions (hash, block_number, index, from_address, to_address, value, nonce, gas, gas_price,
         max_fee_per_gas, max_priority_fee_per_gas, type, input, status, gas_used, cumulative_gas_used,
         effective_gas_price, contract_address)
       select * from unnest($1::bytea[], $2::int8[], $3::int4[], $4::bytea[], $5::bytea[], $6::numeric[], $7::int8[],
         $8::numeric[], $9::numeric[], $10::numeric[], $11::numeric[], $12::int4[], $13::bytea[], $14::int2[],
         $15::numeric[], $16::numeric[], $17::numeric[], $18::bytea[])`,
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
