import type { Address } from "viem";
import { toBytea } from "../src/db/bytes.js";
import type { Db } from "../src/db/db.js";
import { addressTransfersPage } from "../src/explorer/token-transfer/query.js";
import { sortedAddressTransactionsPage } from "../src/explorer/transaction/address-sort.js";
import { addressTransactionsPage, filteredTransactionsPage } from "../src/explorer/transaction/query.js";
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

const position = (q: URLSearchParams) => {
  const b = int(q, "block_number");
  const i = int(q, "index");
  return b != null && i != null ? { blockNumber: b, index: i } : null;
};

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
  {
    // A filtered page (issue 29): the chain's transactions with token transfers (one in ten here), from its index.
    id: "transactions-token-transfer",
    path: () => "/transactions?type=token_transfer",
    baseline: (db, q) =>
      filteredTransactionsPage(db, { types: ["token_transfer"], methods: null }, position(q), 51),
    async deepCursor(db) {
      const [n] = await db.query<{ n: string }>(
        "select value::text as n from chain_counters where name = 'token_transfers'",
      );
      const [r] = await db.query<{ b: number; i: number }>(
        `select block_number as b, index as i from transactions where has_token_transfers
         order by block_number desc, index desc offset $1 limit 1`,
        [Math.floor(Number(n?.n ?? 0) * 0.9)],
      );
      return { block_number: String(r!.b), index: String(r!.i), items_count: "50" };
    },
  },
  {
    // A sorted page (issue 29): the busy address's transactions by value ascending (1,000 values: long ties).
    id: "transactions-by-value",
    path: (a) => `/addresses/${a}/transactions?sort=value&order=asc`,
    baseline: (db, q) => {
      const at = position(q);
      const value = q.get("value");
      return sortedAddressTransactionsPage(
        db,
        BUSY,
        null,
        { by: "value", order: "asc" },
        at && value !== null ? { ...at, key: value } : null,
        51,
      );
    },
    async deepCursor(db) {
      const [n] = await db.query<{ n: string }>(
        "select transactions_count::text as n from address_counters where address = $1",
        [busy()],
      );
      const [r] = await db.query<{ b: number; i: number; v: string }>(
        `select block_number as b, index as i, value::text as v from transactions
         where from_address = $1 or to_address = $1
         order by value, block_number desc, index desc offset $2 limit 1`,
        [busy(), Math.floor(Number(n?.n ?? 0) * 0.9)],
      );
      return { block_number: String(r!.b), index: String(r!.i), value: r!.v, items_count: "50" };
    },
  },
];
