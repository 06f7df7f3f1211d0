import type { Address } from "viem";
import type { Queryable } from "../db/db.js";
import { type AddressDeps, loadAddressObjects } from "./objects/address-facts.js";
import type { AddressObject } from "./objects/address-view.js";

/** Blockscout's page size of every list endpoint; pages fetch one row more to know whether another page follows. */
export const PAGE_SIZE = 50;

/** The rows a page statement asks for: one more than a page, to know whether another page follows. */
export const PAGE_LIMIT = PAGE_SIZE + 1;

/**
 * Splits a fetched page (up to PAGE_SIZE + 1 rows) into its items and Blockscout's next_page_params: the request's
 * own parameters that Blockscout keeps (such as `token` or `call_type`; it drops `type`, `filter`, `method`, `q`,
 * `sort` and `order`: delete_parameters_from_next_page_params), then the cursor of the last item and
 * `items_count`; null on the last page. A cursor that names `items_count` itself keeps it at that place among the
 * keys (upstream's order of some lists), with the page size as its value.
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

export type Page<T, C> = { items: T[]; next_page_params: (C & { items_count: number }) | null };

const NO_ADDRESSES: ReadonlyMap<Address, AddressObject> = new Map();

type PageOptions<R, C, T> = {
  /** What the page statement returned: up to `size` + 1 rows. */
  rows: readonly R[];
  cursor: (last: R) => C;
  /** Request parameters next_page_params repeats before the cursor (see splitPage). */
  keep?: Record<string, unknown>;
  size?: number;
  /** The page's items from its rows and the address objects of `addressesOf` (empty without it). */
  render: (rows: R[], addresses: ReadonlyMap<Address, AddressObject>) => T[] | Promise<T[]>;
} & (
  | { addressesOf?: undefined }
  | {
      /** Addresses whose objects the items show, loaded with one set-based load for the page. */
      addressesOf: (rows: readonly R[]) => Iterable<Address>;
      deps: AddressDeps & { db: Queryable };
    }
);

/**
 * One page of a list: split the fetched rows, load the address objects the items show, render, and add
 * next_page_params (see splitPage). An empty page renders nothing and loads nothing.
 */
export async function page<R, C extends Record<string, unknown>, T>(
  o: PageOptions<R, C, T>,
): Promise<Page<T, C>> {
  const p = splitPage(o.rows, o.cursor, o.keep, o.size);
  if (!p.rows.length) return { items: [], next_page_params: null };
  const addresses = o.addressesOf
    ? await loadAddressObjects(o.deps.db, [...o.addressesOf(p.rows)], o.deps)
    : NO_ADDRESSES;
  return { items: await o.render(p.rows, addresses), next_page_params: p.next_page_params };
}
