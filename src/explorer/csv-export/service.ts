import type { Address, Hex } from "viem";
import { fromBytea, toBytea } from "../../db/bytes.js";
import { csvLine } from "../../http/csv.js";
import { verifiedAbisFor } from "../decoding/abi.js";
import type { ExplorerDeps } from "../deps.js";
import { indexedChainId } from "../objects/verified-store.js";
import {
  blockRange,
  csvHolders,
  csvInternalTransactions,
  csvLogs,
  csvTokenTransfers,
  csvTransactions,
  type Direction,
  tokenOf,
} from "./query.js";
import {
  HOLDERS_HEADER,
  holderCsvRow,
  INTERNAL_TRANSACTIONS_HEADER,
  internalTransactionCsvRow,
  LOGS_HEADER,
  logCsvRow,
  TOKEN_TRANSFERS_HEADER,
  TRANSACTIONS_HEADER,
  tokenTransferCsvRow,
  transactionCsvRow,
} from "./view.js";

/** Blockscout's CSV_EXPORT_LIMIT default: the most rows one export writes (`/config/csv-export` says so). */
export const CSV_EXPORT_LIMIT = 10_000;
/** Rows read per statement while an export streams. */
const CHUNK = 1_000;

/** `/config/csv-export`: the row limit; exports are answered at once (no asynchronous export queue). */
export const csvExportConfig = () => ({ limit: CSV_EXPORT_LIMIT, async_enabled: false });

/**
 * A period bound as Blockscout reads from_period/to_period: a date means its first (from) or last second (to) in
 * UTC; a date-time without an offset is read as UTC; `null` (the literal) or nothing means no bound.
 */
export function periodBound(raw: string | undefined, end: boolean): Date | null {
  if (raw === undefined || raw === "" || raw.toLowerCase() === "null") return null;
  const text = /^\d{4}-\d{2}-\d{2}$/.test(raw)
    ? `${raw}T${end ? "23:59:59" : "00:00:00"}Z`
    : /(z|[+-]\d{2}(:?\d{2})?)$/i.test(raw.slice(10))
      ? raw
      : `${raw}Z`;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Blockscout's filter_type/filter_value: `address` with `from` or `to` narrows to one side. */
export function exportDirection(type: string | undefined, value: string | undefined): Direction {
  return type === "address" && (value === "from" || value === "to") ? value : null;
}

/** Whether the index knows the address (Blockscout's Address.address_exists?). */
export async function addressKnown(deps: ExplorerDeps, address: Address): Promise<boolean> {
  const rows = await deps.db.query(
    `select 1 from addresses where address = $1
     union all select 1 from tokens where address = $1 limit 1`,
    [toBytea(address)],
  );
  return rows.length > 0;
}

export type ExportRequest = {
  address: Address;
  from: Date | null;
  to: Date | null;
  direction: Direction;
  /** The logs export's topic filter. */
  topic: Hex | null;
};

/** Pulls chunks until the limit or the end; `next` reads a chunk after the last row (null: the first). */
async function* chunks<R>(next: (last: R | null, limit: number) => Promise<R[]>): AsyncGenerator<R[]> {
  let left = CSV_EXPORT_LIMIT;
  let last: R | null = null;
  while (left > 0) {
    const rows = await next(last, Math.min(CHUNK, left));
    if (rows.length) yield rows;
    if (rows.length < Math.min(CHUNK, left)) return;
    left -= rows.length;
    last = rows[rows.length - 1]!;
  }
}

const lines = (rows: ReadonlyArray<ReadonlyArray<string | number | null>>) => rows.map(csvLine).join("");

/** `/addresses/{h}/transactions/csv`: newest first, in the period, at most CSV_EXPORT_LIMIT rows. */
export async function* transactionsCsv(deps: ExplorerDeps, q: ExportRequest): AsyncGenerator<string> {
  yield csvLine(TRANSACTIONS_HEADER);
  const range = await blockRange(deps.db, q.from, q.to);
  if (range.empty) return;
  const chainId = await indexedChainId(deps.db);
  for await (const rows of chunks((last: Awaited<ReturnType<typeof csvTransactions>>[number] | null, limit) =>
    csvTransactions(
      deps.db,
      q.address,
      q.direction,
      range,
      last && { blockNumber: last.block_number, index: last.index },
      limit,
    ),
  )) {
    const callees = rows
      .filter((r) => r.callee_verified && r.to_address)
      .map((r) => fromBytea(r.to_address!) as Address);
    const abis =
      callees.length && chainId !== null ? await verifiedAbisFor(deps.db, chainId, callees) : new Map();
    yield lines(
      rows.map((r) =>
        transactionCsvRow(
          r,
          q.address,
          r.to_address ? abis.get(fromBytea(r.to_address) as Address) : undefined,
        ),
      ),
    );
  }
}

/** `/addresses/{h}/token-transfers/csv`: oldest first (as Blockscout's), in the period. */
export async function* tokenTransfersCsv(deps: ExplorerDeps, q: ExportRequest): AsyncGenerator<string> {
  yield csvLine(TOKEN_TRANSFERS_HEADER);
  const range = await blockRange(deps.db, q.from, q.to);
  if (range.empty) return;
  for await (const rows of chunks(
    (last: Awaited<ReturnType<typeof csvTokenTransfers>>[number] | null, limit) =>
      csvTokenTransfers(
        deps.db,
        q.address,
        q.direction,
        range,
        last && { blockNumber: last.block_number, logIndex: last.log_index, batchIndex: last.batch_index },
        limit,
      ),
  ))
    yield lines(rows.map((r) => tokenTransferCsvRow(r, q.address)));
}

/** `/addresses/{h}/internal-transactions/csv`: newest first, in the period. */
export async function* internalTransactionsCsv(deps: ExplorerDeps, q: ExportRequest): AsyncGenerator<string> {
  yield csvLine(INTERNAL_TRANSACTIONS_HEADER);
  const range = await blockRange(deps.db, q.from, q.to);
  if (range.empty) return;
  for await (const rows of chunks(
    (last: Awaited<ReturnType<typeof csvInternalTransactions>>[number] | null, limit) =>
      csvInternalTransactions(
        deps.db,
        q.address,
        q.direction,
        range,
        last && {
          blockNumber: last.block_number,
          transactionIndex: last.transaction_index,
          index: last.index,
        },
        limit,
      ),
  ))
    yield lines(rows.map(internalTransactionCsvRow));
}

/** `/addresses/{h}/logs/csv`: newest first, in the period, with an optional topic. */
export async function* logsCsv(deps: ExplorerDeps, q: ExportRequest): AsyncGenerator<string> {
  yield csvLine(LOGS_HEADER);
  const range = await blockRange(deps.db, q.from, q.to);
  if (range.empty) return;
  for await (const rows of chunks((last: Awaited<ReturnType<typeof csvLogs>>[number] | null, limit) =>
    csvLogs(
      deps.db,
      q.address,
      q.topic,
      range,
      last && { blockNumber: last.block_number, index: last.log_index },
      limit,
    ),
  ))
    yield lines(rows.map(logCsvRow));
}

/** `/tokens/{h}/holders/csv`: the holders list (no period), balances in token units; null for an unknown token. */
export async function holdersCsv(deps: ExplorerDeps, token: Address): Promise<AsyncGenerator<string> | null> {
  const t = await tokenOf(deps.db, token);
  if (!t) return null;
  return (async function* () {
    yield csvLine(HOLDERS_HEADER);
    for await (const rows of chunks((last: Awaited<ReturnType<typeof csvHolders>>[number] | null, limit) =>
      csvHolders(
        deps.db,
        token,
        t.type,
        last && { value: last.value, holder: last.holder, tokenId: last.token_id ?? "1e100" },
        limit,
      ),
    ))
      yield lines(rows.map((r) => holderCsvRow(r, t.decimals)));
  })();
}
