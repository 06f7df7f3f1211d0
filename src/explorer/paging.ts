/** Blockscout's page size of every list endpoint; pages fetch one row more to know whether another page follows. */
export const PAGE_SIZE = 50;

/**
 * Splits a fetched page (up to PAGE_SIZE + 1 rows) into its items and Blockscout's next_page_params: the request's
 * own parameters that Blockscout keeps (filters such as `filter`), then the cursor of the last item and
 * `items_count`; null on the last page.
 */
export function splitPage<R, C extends Record<string, unknown>>(
  rows: readonly R[],
  cursor: (last: R) => C,
  keep: Record<string, unknown> = {},
  size = PAGE_SIZE,
): { rows: R[]; next_page_params: (C & { items_count: number }) | null } {
  const page = rows.slice(0, size);
  if (rows.length <= size || page.length === 0) return { rows: page, next_page_params: null };
  return { rows: page, next_page_params: { ...keep, ...cursor(page[page.length - 1]!), items_count: size } };
}
