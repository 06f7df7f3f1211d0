import DataLoader from "dataloader";
import { indexedChainId } from "../chain-store/checkpoint.js";
import { fromBytea, toBytea } from "../db/bytes.js";
import type { Queryable } from "../db/db.js";
import { getVerifiedContracts } from "../verifier/store/index.js";
import { type Connection, type ConnectionArgs, connectionOf, type PagePlan, planPage } from "./paging.js";
import {
  addressRows,
  addressTransactionPages,
  addressTransferKeys,
  blockRows,
  internalTransactionPages,
  type TransferKey,
  tokenRows,
  tokenTransferKeys,
  transactionRows,
  transferRows,
} from "./query.js";
import {
  type AddressObject,
  addressView,
  blockView,
  groupTransfers,
  internalTransactionView,
  smartContractObject,
  type TokenTransferObject,
  type TransactionObject,
  tokenView,
  transactionView,
} from "./view.js";

/** A page request of a connection of one parent: the parent's key and the field's arguments. */
type PageKey = { parent: string; args: ConnectionArgs & { order?: "ASC" | "DESC" } };

const pageKeyOf = (k: PageKey) => JSON.stringify([k.parent, k.args]);

/**
 * One DataLoader per page-shaped field: the requests of a tick are grouped by their arguments (one plan each) and
 * each group is one statement over all its parents. A malformed cursor fails only the requests that carry it.
 */
function pageLoader<T>(
  kind: string,
  width: number,
  load: (parents: string[], plan: PagePlan, order: "asc" | "desc") => Promise<Map<string, T[]>>,
  keyOf: (item: T) => readonly number[],
  order: (args: PageKey["args"]) => "asc" | "desc",
) {
  return new DataLoader<PageKey, Connection<T>, string>(
    async (keys) => {
      const groups = new Map<string, PageKey[]>();
      for (const k of keys) {
        const g = JSON.stringify(k.args);
        groups.set(g, [...(groups.get(g) ?? []), k]);
      }
      const out = new Map<string, Connection<T> | Error>();
      await Promise.all(
        [...groups.values()].map(async (group) => {
          const args = group[0]!.args;
          try {
            const o = order(args);
            const plan = planPage(kind, width, o, args);
            const rows = await load([...new Set(group.map((g) => g.parent))], plan, o);
            for (const k of group)
              out.set(pageKeyOf(k), connectionOf(kind, plan, rows.get(k.parent) ?? [], keyOf));
          } catch (e) {
            for (const k of group) out.set(pageKeyOf(k), e as Error);
          }
        }),
      );
      return keys.map((k) => out.get(pageKeyOf(k))!);
    },
    { cacheKeyFn: pageKeyOf },
  );
}

function byKey<V>(keys: readonly string[], found: Map<string, V>): Array<V | null> {
  return keys.map((k) => found.get(k) ?? null);
}

const hexKey = (b: Uint8Array) => fromBytea(b);

/** Groups rows by a parent column into the page order they came in. */
function groupBy<R, T>(rows: readonly R[], parentOf: (r: R) => string, map: (r: R) => T): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const p = parentOf(r);
    out.set(p, [...(out.get(p) ?? []), map(r)]);
  }
  return out;
}

/** The token transfer nodes of some logs (one statement), in the order of `keys`. */
async function transfersOf(db: Queryable, keys: readonly TransferKey[]): Promise<TokenTransferObject[]> {
  const nodes = groupTransfers(await transferRows(db, keys));
  return keys.map((k) => nodes.get(`${k.block_number}:${k.log_index}`)).filter((n) => n !== undefined);
}

const transferKey = (t: TokenTransferObject) => [t.blockNumber, t.logIndex] as const;

/** The per-request loaders of every field that reads the database (no N+1: one statement per field and tick). */
export function createLoaders(db: Queryable) {
  let chainId: Promise<number | null> | undefined;
  return {
    address: new DataLoader<string, AddressObject | null>(async (keys) => {
      const rows = await addressRows(db, keys.map(toBytea));
      return byKey(keys, new Map(rows.filter((r) => r.seen).map((r) => [hexKey(r.address), addressView(r)])));
    }),
    transaction: new DataLoader<string, TransactionObject | null>(async (keys) => {
      const rows = await transactionRows(db, keys.map(toBytea));
      return byKey(keys, new Map(rows.map((r) => [hexKey(r.hash), transactionView(r)])));
    }),
    block: new DataLoader<number, ReturnType<typeof blockView> | null, number>(async (keys) => {
      const rows = new Map((await blockRows(db, keys)).map((r) => [Number(r.number), blockView(r)]));
      return keys.map((k) => rows.get(k) ?? null);
    }),
    token: new DataLoader<string, ReturnType<typeof tokenView> | null>(async (keys) => {
      const rows = await tokenRows(db, keys.map(toBytea));
      return byKey(keys, new Map(rows.map((r) => [hexKey(r.address), tokenView(r)])));
    }),
    smartContract: new DataLoader<string, ReturnType<typeof smartContractObject> | null>(async (keys) => {
      chainId ??= indexedChainId(db);
      const id = await chainId;
      if (id === null) return keys.map(() => null);
      const records = await getVerifiedContracts(db, String(id), keys);
      return byKey(keys, new Map(records.map((r) => [r.address.toLowerCase(), smartContractObject(r)])));
    }),
    addressTransactions: pageLoader<TransactionObject>(
      "T",
      2,
      async (owners, plan) =>
        groupBy(
          await addressTransactionPages(db, owners.map(toBytea), plan),
          (r) => hexKey(r.owner),
          transactionView,
        ),
      (t) => [t.blockNumber, t.index],
      (args) => (args.order === "ASC" ? "asc" : "desc"),
    ),
    addressTransfers: pageLoader<TokenTransferObject>(
      "TT",
      2,
      async (owners, plan) => {
        const keys = await addressTransferKeys(db, owners.map(toBytea), plan);
        const nodes = new Map(
          (await transfersOf(db, keys)).map((n) => [`${n.blockNumber}:${n.logIndex}`, n] as const),
        );
        return groupBy(
          keys.filter((k) => nodes.has(`${k.block_number}:${k.log_index}`)),
          (k) => hexKey(k.owner),
          (k) => nodes.get(`${k.block_number}:${k.log_index}`)!,
        );
      },
      transferKey,
      () => "desc",
    ),
    tokenTransfers: pageLoader<TokenTransferObject>(
      "TT",
      2,
      async (tokens, plan) =>
        new Map(
          await Promise.all(
            tokens.map(
              async (t) => [t, await transfersOf(db, await tokenTransferKeys(db, toBytea(t), plan))] as const,
            ),
          ),
        ),
      transferKey,
      () => "desc",
    ),
    internalTransactions: pageLoader(
      "IT",
      1,
      async (hashes, plan) =>
        groupBy(
          await internalTransactionPages(db, hashes.map(toBytea), plan),
          (r) => hexKey(r.transaction_hash),
          internalTransactionView,
        ),
      (i) => [i.index],
      () => "asc",
    ),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
