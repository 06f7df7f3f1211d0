import type { Address } from "viem";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { AddressTxSort, SortedTxCursor } from "./filters.js";
import { type AddressTxFilter, COLUMNS, FROM, type TransactionRow } from "./query.js";

/** The sort keys, as migration 101's indexes write them (the planner matches the text). */
const KEYS = {
  value: "t.value",
  fee: "coalesce(coalesce(t.gas_price, t.effective_gas_price) * t.gas_used, -1)",
} as const;

type Side = { where: string; join?: string };

/**
 * Transactions from, to, or creating `address` in a Blockscout sort order (ties: newest first, as its
 * compare_default_sorting), after the cursor. Each side (sender, recipient: their indexes; the transactions that
 * created the address: a handful of rows) yields at most a page in order, and the sides are merged and cut:
 * - block_number: the (address, block_number desc, index desc) indexes, read forwards or backwards;
 * - value/fee descending: one backward range scan of (address, key, block_number, index) from the cursor;
 * - value/fee ascending: the same index read key by key upwards (each key's transactions newest first, backwards
 *   within the key), so ties keep Blockscout's order; a page walks at most a page of keys.
 * Whatever the depth, a page costs the same few range scans.
 */
export async function sortedAddressTransactionsPage(
  db: Queryable,
  address: Address,
  filter: AddressTxFilter,
  sort: AddressTxSort,
  cursor: SortedTxCursor | null,
  limit: number,
): Promise<TransactionRow[]> {
  const params: unknown[] = [toBytea(address), limit];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const key = sort.by === "block_number" ? null : KEYS[sort.by];
  const sides: Side[] = [];
  if (filter !== "to") sides.push({ where: "t.from_address = $1" });
  if (filter !== "from") {
    sides.push({ where: "t.to_address = $1" });
    sides.push({
      where: "c.address = $1 and c.kind = 'transaction'",
      join: "contract_creations c join transactions t on t.hash = c.transaction_hash",
    });
  }
  const b = cursor ? p(cursor.blockNumber) : null;
  const i = cursor ? p(cursor.index) : null;
  // Ascending walks start at the cursor's key (the first page below every key: an empty start).
  const k = key && (cursor || sort.order === "asc") ? p(cursor?.key ?? "-Infinity") : null;
  const dir = sort.order === "asc" ? "asc" : "desc";
  const scan = (s: Side, where: string, order: string, kCol = key ?? "null::numeric") =>
    `(select t.hash, t.block_number, t.index, ${kCol} as k from ${s.join ?? "transactions t"}
      where ${s.where}${where} order by ${order} limit $2)`;

  let parts: string[];
  if (key === null) {
    const cmp = dir === "asc" ? ">" : "<";
    const where = cursor ? ` and (t.block_number, t.index) ${cmp} (${b}, ${i})` : "";
    parts = sides.map((s) => scan(s, where, `t.block_number ${dir}, t.index ${dir}`));
  } else if (dir === "desc") {
    const where = cursor ? ` and (${key}, t.block_number, t.index) < (${k}::numeric, ${b}, ${i})` : "";
    parts = sides.map((s) => scan(s, where, `${key} desc, t.block_number desc, t.index desc`));
  } else {
    const after = cursor ? `(t.block_number, t.index) < (${b}, ${i})` : "false";
    parts = sides.map((s) =>
      s.join
        ? scan(
            s,
            ` and (${key} > ${k}::numeric or (${key} = ${k}::numeric and ${after}))`,
            `${key}, t.block_number desc, t.index desc`,
          )
        : ascendingKeyWalk(s.where, key, k!, after),
    );
  }
  return db.query<TransactionRow>(
    `select ${COLUMNS} from (
       select hash, block_number, index, k from (
         select distinct on (block_number, index) hash, block_number, index, k from (${parts.join(" union all ")}) s
         order by block_number, index) d
       order by k ${dir}, block_number ${key ? "desc" : dir}, index ${key ? "desc" : dir} limit $2) p
     join transactions t on t.hash = p.hash ${FROM}
     order by p.k ${dir}, t.block_number ${key ? "desc" : dir}, t.index ${key ? "desc" : dir}`,
    params,
    // One text per sort, order, direction filter and first or later page.
    { prepare: true },
  );
}

/**
 * One side's transactions by `key` ascending, ties newest first, after the cursor (`after`: the position condition
 * within the cursor's key `k`): the cursor's key from the cursor on, then each next key (one probe of the index
 * each, min(key) above the last) read newest first, until a page is gathered.
 */
function ascendingKeyWalk(where: string, key: string, k: string, after: string): string {
  // Counted in the index's order, so however large a key's group, at most a page of it is read.
  const count = (cond: string) =>
    `(select count(*) from (select 1 from transactions t where ${where} and ${cond}
      order by t.block_number desc, t.index desc limit $2) c)`;
  return `(with recursive g(k, n) as (
      select ${k}::numeric, ${count(`${key} = ${k}::numeric and ${after}`)}
      union all
      select nx.k, g.n + ${count(`${key} = nx.k`)}
      from g cross join lateral (select min(${key}) as k from transactions t where ${where} and ${key} > g.k) nx
      where g.n < $2 and nx.k is not null)
    select r.* from g cross join lateral (
      select t.hash, t.block_number, t.index, ${key} as k from transactions t where ${where} and ${key} = g.k
      order by t.block_number desc, t.index desc limit $2) r
    where g.k > ${k}::numeric
    union all
    (select t.hash, t.block_number, t.index, ${key} as k from transactions t
      where ${where} and ${key} = ${k}::numeric and ${after}
      order by t.block_number desc, t.index desc limit $2))`;
}
