import { type Hex, numberToHex } from "viem";
import type { InternalTransactionsRow } from "../../chain-store/rows.js";
import { fromBytea, fromByteaOrNull, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

/** A stored call frame (internal_transactions), numerics as strings. */
export type FrameRow = Omit<
  InternalTransactionsRow,
  "block_number" | "transaction_index" | "transaction_hash"
>;

/** The frames of a transaction in depth-first order (index (transaction_hash, index)). */
export async function transactionFrames(db: Queryable, hash: Hex): Promise<FrameRow[]> {
  return db.query<FrameRow>(
    `select index, type, call_type, from_address, to_address, created_contract_address, value::text as value,
       gas::text as gas, gas_used::text as gas_used, input, output, error, trace_address
     from internal_transactions where transaction_hash = $1 order by index`,
    [toBytea(hash)],
  );
}

const hex = (s: string | null) => (s === null ? "0x0" : numberToHex(BigInt(s)));

/**
 * One frame in the OpenEthereum (trace_*) shape the frontend's RawTrace describes and Blockscout serves: quantities
 * as hex, `traceAddress`, `subtraces`, `suicide` for self-destructs, `result` absent on error. Pure.
 */
export function rawTraceView(f: FrameRow, subtraces: number): Record<string, unknown> {
  const base = { subtraces, traceAddress: f.trace_address };
  const failed = f.error !== null ? { error: f.error } : {};
  if (f.type === "selfdestruct")
    return {
      ...base,
      type: "suicide",
      action: {
        address: fromBytea(f.from_address),
        refundAddress: fromByteaOrNull(f.to_address),
        balance: hex(f.value),
      },
      result: null,
    };
  if (f.type === "create" || f.type === "create2")
    return {
      ...base,
      type: "create",
      action: {
        creationMethod: f.type,
        from: fromBytea(f.from_address),
        gas: hex(f.gas),
        init: fromByteaOrNull(f.input) ?? "0x",
        value: hex(f.value),
      },
      ...(f.error === null
        ? {
            result: {
              address: fromByteaOrNull(f.created_contract_address),
              code: fromByteaOrNull(f.output) ?? "0x",
              gasUsed: hex(f.gas_used),
            },
          }
        : failed),
    };
  return {
    ...base,
    type: "call",
    action: {
      callType: f.call_type ?? "call",
      from: fromBytea(f.from_address),
      to: fromByteaOrNull(f.to_address),
      gas: hex(f.gas),
      input: fromByteaOrNull(f.input) ?? "0x",
      value: hex(f.value),
    },
    ...(f.error === null
      ? { result: { gasUsed: hex(f.gas_used), output: fromByteaOrNull(f.output) ?? "0x" } }
      : failed),
  };
}

/** `/transactions/{hash}/raw-trace` from the stored frames; null for an unknown transaction, [] without frames. */
export async function rawTrace(db: Queryable, hash: Hex): Promise<Record<string, unknown>[] | null> {
  const [frames, known] = await Promise.all([
    transactionFrames(db, hash),
    db.query("select 1 from transactions where hash = $1", [toBytea(hash)]),
  ]);
  if (!known.length) return null;
  const children = new Map<string, number>();
  for (const f of frames) {
    if (!f.trace_address.length) continue;
    const parent = f.trace_address.slice(0, -1).join(",");
    children.set(parent, (children.get(parent) ?? 0) + 1);
  }
  return frames.map((f) => rawTraceView(f, children.get(f.trace_address.join(",")) ?? 0));
}
