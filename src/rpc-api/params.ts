import type { Address, Hex } from "viem";
import type { Params } from "../http/etherscan-params.js";

/**
 * Blockscout's optional list parameters (AddressController.optional_params): `page` and `offset` (positive
 * integers, an offset above the maximum is ignored), `sort` asc|desc (default desc), `startblock`/`endblock`,
 * `filter_by` from|to, `start_timestamp`/`end_timestamp` (unix seconds). Anything malformed is ignored, as there.
 */
export type ListOptions = {
  page: number;
  offset: number;
  sort: "asc" | "desc";
  startBlock: number | null;
  endBlock: number | null;
  filterBy: "from" | "to" | null;
  startTime: Date | null;
  endTime: Date | null;
};

/** Blockscout's page-size maximum and default (Etherscan.page_size_max) and its results window. */
export const MAX_OFFSET = 10_000;
export const RESULTS_WINDOW = 10_000;
export const WINDOW_TOO_LARGE = `Result window is too large, PageNo x Offset size must be less than or equal to ${RESULTS_WINDOW}`;
const MAX_BLOCK = 2 ** 31 - 1;

const positive = (v: string | undefined): number | null => {
  if (v === undefined || !/^\d+$/.test(v)) return null;
  const n = Number(v);
  return n > 0 && Number.isSafeInteger(n) ? n : null;
};

const blockNumber = (v: string | undefined): number | null => {
  if (v === undefined || !/^\d+$/.test(v)) return null;
  const n = Number(v);
  return n <= MAX_BLOCK ? n : null;
};

const unixTime = (v: string | undefined): Date | null => {
  if (v === undefined || !/^-?\d+$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) && Math.abs(n) < 8.64e12 ? new Date(n * 1000) : null;
};

/** `page` and `offset` as Blockscout reads them: `defaults` when absent or malformed. */
export function pageParams(p: Params, defaults: { page: number; offset: number }) {
  const offset = positive(p.get("offset"));
  return {
    page: positive(p.get("page")) ?? defaults.page,
    offset: offset !== null && offset <= MAX_OFFSET ? offset : defaults.offset,
  };
}

/** The list options, or null when `page` x `offset` is beyond the results window. */
export function listOptions(p: Params): ListOptions | null {
  const { page, offset } = pageParams(p, { page: 1, offset: MAX_OFFSET });
  if (page * offset > RESULTS_WINDOW) return null;
  const sort = p.get("sort");
  const filterBy = p.get("filter_by");
  return {
    page,
    offset,
    sort: sort === "asc" ? "asc" : "desc",
    startBlock: blockNumber(p.get("startblock")),
    endBlock: blockNumber(p.get("endblock")),
    filterBy: filterBy === "from" || filterBy === "to" ? filterBy : null,
    startTime: unixTime(p.get("start_timestamp")),
    endTime: unixTime(p.get("end_timestamp")),
  };
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;

export const asAddress = (v: string | undefined): Address | null =>
  v !== undefined && ADDRESS.test(v) ? (v.toLowerCase() as Address) : null;
export const asHash = (v: string | undefined): Hex | null =>
  v !== undefined && HASH.test(v) ? (v.toLowerCase() as Hex) : null;

/** A decimal integer string (Elixir's Integer.parse with nothing left over). */
export const asInteger = (v: string | undefined): number | null =>
  v !== undefined && /^[+-]?\d+$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : null;
