import type { FetchedBlock } from "../../../chain/types.js";
import { type IndexerExtension, stageSlot } from "../../pipeline/extension.js";
import { type CoreRows, deriveCoreRows } from "./derive.js";
import {
  type EncodedCoreRows,
  encodeCoreRows,
  joinOpenLines,
  revertCoreRows,
  writeCoreRows,
} from "./store.js";
import { type BlockTokenLogs, decodeBlockTokenLogs } from "./token-logs.js";

/** What the core stage keeps of a fetched block: its token logs, its core rows and their COPY tuples. */
type CoreFetched = BlockTokenLogs & { rows: CoreRows; encoded: EncodedCoreRows };

const CORE = stageSlot<CoreFetched>("core");

/** One block's core rows: as derived when it arrived, or now for a block fetched without this stage's afterFetch. */
export function coreRowsOf(fetched: FetchedBlock): CoreRows {
  return CORE.of(fetched)?.rows ?? deriveCoreRows([fetched]);
}

/**
 * The batch's rows in block order with their COPY tuples: each block's as derived and encoded when it arrived
 * (nothing encoded when a block was fetched without this stage's afterFetch: the rows are then derived now).
 */
function batchRows(batch: readonly FetchedBlock[]): { rows: CoreRows; encoded?: EncodedCoreRows } {
  const own = batch.map((b) => CORE.of(b));
  if (own.some((o) => !o)) return { rows: deriveCoreRows(batch) };
  const parts = own as CoreFetched[];
  if (parts.length === 1) return parts[0]!;
  const rows: CoreRows = { blocks: [], transactions: [], logs: [], creations: [] };
  for (const p of parts) {
    rows.blocks.push(...p.rows.blocks);
    rows.transactions.push(...p.rows.transactions);
    rows.logs.push(...p.rows.logs);
    rows.creations.push(...p.rows.creations);
  }
  const join = (pick: (e: EncodedCoreRows) => Uint8Array) => Buffer.concat(parts.map((p) => pick(p.encoded)));
  const encoded: EncodedCoreRows = {
    blocks: join((e) => e.blocks),
    transactionLines: joinOpenLines(parts.map((p) => p.encoded.transactionLines)),
    logs: join((e) => e.logs),
    creations: join((e) => e.creations),
  };
  return { rows, encoded };
}

/**
 * Blocks, transactions, logs and contract creations: the first stage, written before (and undone after) every
 * stage that reads them. Each block's rows are derived as soon as it arrives, beside the writes of earlier
 * ranges, so the batch transaction only writes them.
 */
export function coreRowsExtension(): IndexerExtension<CoreFetched> {
  return {
    id: CORE.id,
    // Token logs decoded and core rows derived when the block arrives, outside the batch transaction: this stage
    // writes the rows; the tokens stage reads the token logs (the same slot, seen as BlockTokenLogs).
    afterFetch: async (_rpc, fetched) => {
      const logs = decodeBlockTokenLogs(fetched);
      const rows = deriveCoreRows([fetched], () => logs);
      return { ...logs, rows, encoded: encodeCoreRows(rows) };
    },
    async write(tx, batch) {
      const { rows, encoded } = batchRows(batch);
      await writeCoreRows(tx, rows, encoded);
    },
    revert: revertCoreRows,
  };
}
