import type { Address } from "viem";
import { toBytea } from "../src/db/bytes.js";
import type { Db } from "../src/db/db.js";
import { addressTransfersPage } from "../src/explorer/token-transfer/query.js";
import { addressTransactionsPage } from "../src/explorer/transaction/query.js";
import { BUSY } from "./api-explorer-data.js";

/**
 * The pages the explorer benchmark measures: Lookout's route, the baseline's statement (the same query function
 * Lookout's route calls), and the cursor of the item 90 % into the busy address's list (a deep page).
 */
export type ExplorerPage = {
  id: string;
  path(address: Address): string;
  baseline(db: Db, q: URLSearchParams): Promise<unknown[]>;
  deepCursor(db: Db): Promise<Record<string, string>>;
};

const busy = () => toBytea(BUSY);
const int = (q: URLSearchParams, k: string) => (q.has(k) ? Number(q.get(k)) : null);

export const EXPLORER_PAGES: ExplorerPage[] = [
  {
    id: "transactions",
    path: (a) => `/addresses/${a}/transactions`,
    baseline: (db, q) => {
      const b = int(q, "block_number");
      const i = int(q, "index");
      return addressTransactionsPage(
        db,
        BUSY,
        null,
        b != null && i != null ? { blockNumber: b, index: i } : null,
        51,
      );
    },
    async deepCursor(db) {
      const [n] = await db.query<{ n: string }>(
        "select transactions_count::text as n from address_counters where address = $1",
        [busy()],
      );
      const [r] = await db.query<{ b: number; i: number }>(
        `select block_number as b, index as i from transactions where from_address = $1 or to_address = $1
         order by block_number desc, index desc offset $2 limit 1`,
        [busy(), Math.floor(Number(n?.n ?? 0) * 0.9)],
      );
      return { block_number: String(r!.b), index: String(r!.i), items_count: "50" };
    },
  },
  {
    id: "token-transfers",
    path: (a) => `/addresses/${a}/token-transfers`,
    baseline: (db, q) => {
      const b = int(q, "block_number");
      const i = int(q, "index");
      const cursor =
        b != null && i != null
          ? { blockNumber: b, logIndex: i, batchIndex: int(q, "batch_index") ?? 0 }
          : null;
      return addressTransfersPage(db, BUSY, { direction: null, types: null, token: null }, cursor, 51);
    },
    async deepCursor(db) {
      const [n] = await db.query<{ n: string }>(
        "select token_transfers_count::text as n from address_counters where address = $1",
        [busy()],
      );
      const [r] = await db.query<{ b: number; l: number; x: number }>(
        `select block_number as b, log_index as l, batch_index as x from token_transfers
         where from_address = $1 or to_address = $1
         order by block_number desc, log_index desc, batch_index desc offset $2 limit 1`,
        [busy(), Math.floor(Number(n?.n ?? 0) * 0.9)],
      );
      return {
        block_number: String(r!.b),
        index: String(r!.l),
        batch_index: String(r!.x),
        items_count: "50",
      };
    },
  },
];
