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

/** Block range and time conditions on `alias`.block_number and the joined block `b` (every caller joins it). */
export function rangeConditions(
  alias: string,
  o: ListOptions,
  params: unknown[],
  timeColumn = "b.timestamp",
): string[] {
  const out: string[] = [];
  const add = (sql: (n: number) => string, v: unknown) => {
    params.push(v);
    out.push(sql(params.length));
  };
  // The bound is repeated on the joined block: the planner does not carry an inequality across the join's equality,
  // and a merge join with blocks would otherwise walk blocks down from the head to the range.
  if (o.startBlock !== null) add((n) => `${alias}.block_number >= $${n} and b.number >= $${n}`, o.startBlock);
  if (o.endBlock !== null) add((n) => `${alias}.block_number <= $${n} and b.number <= $${n}`, o.endBlock);
  if (o.startTime !== null) add((n) => `${timeColumn} >= $${n}`, o.startTime);
  if (o.endTime !== null) add((n) => `${timeColumn} <= $${n}`, o.endTime);
  return out;
}
