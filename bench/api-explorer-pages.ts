import type { Address } from "viem";
import { toBytea } from "../src/db/bytes.js";
import type { Db } from "../src/db/db.js";
import type { ExplorerDeps } from "../src/explorer/deps.js";
import { txCursor } from "../src/explorer/params.js";
import { addressTransfersPage } from "../src/explorer/token-transfer/query.js";
import { transferCursorOf } from "../src/explorer/token-transfer/routes.js";
import { addressTokenTransfers } from "../src/explorer/token-transfer/service.js";
import { sortedAddressTransactionsPage } from "../src/explorer/transaction/address-sort.js";
import { addressTxSort, sortedTxCursor, transactionTypes } from "../src/explorer/transaction/filters.js";
import { addressTransactionsPage, filteredTransactionsPage } from "../src/explorer/transaction/query.js";
import { addressTransactions, validatedTransactions } from "../src/explorer/transaction/service.js";
import { BUSY } from "./api-explorer-data.js";

/**
 * The pages the explorer benchmark measures: Lookout's route; the two baselines, `service` (what the route's handler
 * does after Fastify: the same parameters to the same service call, so the same JSON) and `baseline` (the page's
 * statement alone: the query function the service calls, raw rows); and the cursor of the item 90 % into the list
 * (a deep page).
 */
export type ExplorerPage = {
  id: string;
  path(address: Address): string;
  service(deps: ExplorerDeps, q: URLSearchParams): Promise<unknown>;
  baseline(db: Db, q: URLSearchParams): Promise<unknown[]>;
  deepCursor(db: Db): Promise<Record<string, string>>;
};

const busy = () => toBytea(BUSY);
const int = (q: URLSearchParams, k: string) => (q.has(k) ? Number(q.get(k)) : null);

/** The query string as Fastify hands it to a handler after validation (integers coerced, absent keys absent). */
const coerced = (q: URLSearchParams) => {
  const num = (k: string) => (q.has(k) ? Number(q.get(k)) : undefined);
  const str = (k: string) => q.get(k) ?? undefined;
  return {
    block_number: num("block_number"),
    index: num("index"),
    batch_index: num("batch_index"),
    value: str("value"),
    fee: str("fee"),
  };
};

const position = (q: URLSearchParams) => {
  const b = int(q, "block_number");
  const i = int(q, "index");
  return b != null && i != null ? { blockNumber: b, index: i } : null;
};

export const EXPLORER_PAGES: ExplorerPage[] = [
  {
    id: "transactions",
    path: (a) => `/addresses/${a}/transactions`,
    service: (deps, q) => addressTransactions(deps, BUSY, null, null, sortedTxCursor(coerced(q), null)),
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
    service: (deps, q) =>
      addressTokenTransfers(
        deps,
        BUSY,
        { direction: null, types: null, token: null },
        transferCursorOf(coerced(q)),
      ),
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
    service: (deps, q) =>
      validatedTransactions(deps, txCursor(coerced(q)), {
        types: transactionTypes("token_transfer"),
        methods: null,
      }),
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
    service: (deps, q) => {
      const sort = addressTxSort({ sort: "value", order: "asc" });
      return addressTransactions(deps, BUSY, null, sort, sortedTxCursor(coerced(q), sort));
    },
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
