import { GraphQLError } from "graphql";

/** The Relay arguments of a connection field (Blockscout's, with its `count`, which keyset paging does not need). */
export type ConnectionArgs = {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
};

/** A position in a list: the values of its keyset key (block number, index, …). */
export type Key = readonly number[];

/**
 * One keyset read that serves a page: the rows strictly between `lower` and `upper` (either may be open), read in
 * `scan` order, at most `limit` of them. `reverse`: the rows come back against the list's order (a `last` page).
 */
export type PagePlan = {
  lower: Key | null;
  upper: Key | null;
  scan: "asc" | "desc";
  limit: number;
  reverse: boolean;
  size: number;
  args: ConnectionArgs;
};

/** Opaque cursors: the list's kind and the key, base64 (`T:12:3`). */
export function encodeCursor(kind: string, key: Key): string {
  return Buffer.from(`${kind}:${key.join(":")}`).toString("base64");
}

export function decodeCursor(kind: string, cursor: string, width: number): Key {
  const text = Buffer.from(cursor, "base64").toString("utf8");
  const [k, ...parts] = text.split(":");
  const key = parts.map(Number);
  if (k !== kind || key.length !== width || !key.every((n) => Number.isSafeInteger(n) && n >= 0))
    throw new GraphQLError(`Invalid cursor: ${JSON.stringify(cursor)}`);
  return key;
}

/**
 * The keyset read of a Relay page over a list in `order`: `first` reads on from `after`, `last` reads back from
 * `before` (each bounded by the other cursor); one row more than asked tells whether more follow. As Absinthe's
 * Relay, `first` or `last` is required.
 */
export function planPage(kind: string, width: number, order: "asc" | "desc", args: ConnectionArgs): PagePlan {
  const first = args.first ?? null;
  const last = args.last ?? null;
  if (first === null && last === null) throw new GraphQLError("You must either supply `:first` or `:last`");
  const after = args.after ? decodeCursor(kind, args.after, width) : null;
  const before = args.before ? decodeCursor(kind, args.before, width) : null;
  // In a descending list "after" means smaller keys.
  const [lower, upper] = order === "desc" ? [before, after] : [after, before];
  const reverse = first === null;
  const size = (first ?? last)!;
  const flip = (o: "asc" | "desc") => (o === "asc" ? "desc" : "asc");
  return { lower, upper, scan: reverse ? flip(order) : order, limit: size + 1, reverse, size, args };
}

export type Connection<T> = {
  edges: Array<{ node: T; cursor: string }>;
  pageInfo: {
    hasPreviousPage: boolean;
    hasNextPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
};

/** The page from the rows the plan read (in scan order), with Relay's pageInfo. */
export function connectionOf<T>(
  kind: string,
  plan: PagePlan,
  rows: readonly T[],
  keyOf: (row: T) => Key,
): Connection<T> {
  const more = rows.length > plan.size;
  let page = rows.slice(0, plan.size);
  if (plan.reverse) page = page.reverse();
  // first and last together: the last `last` of the first page (Relay's algorithm).
  if (!plan.reverse && plan.args.last != null && plan.args.last < page.length)
    page = page.slice(page.length - Math.max(0, plan.args.last));
  const edges = page.map((node) => ({ node, cursor: encodeCursor(kind, keyOf(node)) }));
  return {
    edges,
    pageInfo: {
      hasPreviousPage: plan.reverse ? more : plan.args.after != null,
      hasNextPage: plan.reverse ? plan.args.before != null : more,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/** SQL conditions of a plan on the key columns (`(a, b) > ($1, $2)`), its parameters appended to `params`. */
export function keysetSql(plan: PagePlan, columns: readonly string[], params: unknown[]): string {
  const tuple = `(${columns.join(", ")})`;
  const cond = (op: string, key: Key) => {
    const at = key.map((v) => {
      params.push(v);
      return `$${params.length}`;
    });
    return ` and ${tuple} ${op} (${at.join(", ")})`;
  };
  return (plan.lower ? cond(">", plan.lower) : "") + (plan.upper ? cond("<", plan.upper) : "");
}

/** `order by` of the plan's scan over the key columns. */
export function scanOrder(plan: PagePlan, columns: readonly string[]): string {
  return columns.map((c) => `${c} ${plan.scan}`).join(", ");
}
