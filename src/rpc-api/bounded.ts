import type { ListOptions } from "./params.js";

/**
 * Etherscan's `page`/`offset` cannot be a keyset: page N needs the rows before it. As Blockscout does, each role
 * (sender, recipient, created contract) reads at most `page x offset` rows from its own index in the list's order
 * (a range scan that stops there), the union is sorted and the page cut from it; the results window (at most
 * 10,000 rows, listOptions) bounds the work of any request.
 */
export function boundedUnion(branches: string[], order: string, o: ListOptions): string {
  const inner = o.page * o.offset;
  const parts = branches.map((b) => `(${b} limit ${inner})`);
  return `select * from (${parts.join(" union ")}) u order by ${order} offset ${(o.page - 1) * o.offset} limit ${o.offset}`;
}

/** `asc`/`desc` as SQL, from the validated option only (never from request text). */
export const dir = (o: Pick<ListOptions, "sort">) => (o.sort === "asc" ? "asc" : "desc");

/**
 * Block range and time conditions on `alias`.block_number, with their parameters. `block`: the alias of the block the
 * statement joins; the block bound is repeated on it (the planner carries no inequality across the join's equality,
 * and a merge join with blocks would otherwise walk blocks down from the head to the range). Without a joined block
 * the time conditions read the row's block by primary key.
 */
export function rangeConditions(
  alias: string,
  o: ListOptions,
  params: unknown[],
  block: string | null = "b",
): string[] {
  const out: string[] = [];
  const add = (sql: (n: number) => string, v: unknown) => {
    params.push(v);
    out.push(sql(params.length));
  };
  const also = (op: string, n: number) => (block ? ` and ${block}.number ${op} $${n}` : "");
  const time = block
    ? `${block}.timestamp`
    : `(select timestamp from blocks where number = ${alias}.block_number)`;
  if (o.startBlock !== null) add((n) => `${alias}.block_number >= $${n}${also(">=", n)}`, o.startBlock);
  if (o.endBlock !== null) add((n) => `${alias}.block_number <= $${n}${also("<=", n)}`, o.endBlock);
  if (o.startTime !== null) add((n) => `${time} >= $${n}`, o.startTime);
  if (o.endTime !== null) add((n) => `${time} <= $${n}`, o.endTime);
  return out;
}
