import type { Address, Hex } from "viem";

/**
 * The popular methods Blockscout offers before any search (AdvancedFilterController's @methods): the answer of
 * `/advanced-filters/methods` without `q`, and names `methods_names` may use.
 */
export const KNOWN_METHODS: ReadonlyArray<{ method_id: Hex; name: string }> = [
  { method_id: "0xa9059cbb", name: "transfer" },
  { method_id: "0xa0712d68", name: "mint" },
  { method_id: "0x095ea7b3", name: "approve" },
  { method_id: "0x40993b26", name: "buy" },
  { method_id: "0x3593564c", name: "execute" },
  { method_id: "0x3ccfd60b", name: "withdraw" },
  { method_id: "0xd0e30db0", name: "deposit" },
  { method_id: "0x0a19b14a", name: "trade" },
  { method_id: "0x4420e486", name: "register" },
  { method_id: "0x5f575529", name: "swap" },
  { method_id: "0xd9627aa4", name: "sellToUniswap" },
  { method_id: "0xe9e05c42", name: "depositTransaction" },
  { method_id: "0x23b872dd", name: "transferFrom" },
  { method_id: "0xa22cb465", name: "setApprovalForAll" },
  { method_id: "0x2e7ba6ef", name: "claim" },
  { method_id: "0x0502b1c5", name: "unoswap" },
  { method_id: "0xb2267a7b", name: "sendMessage" },
  { method_id: "0x9871efa4", name: "unxswapByOrderId" },
  { method_id: "0xbf6eac2f", name: "stake" },
  { method_id: "0x3ce33bff", name: "bridge" },
  { method_id: "0xeb672419", name: "requestL2Transaction" },
  { method_id: "0xe449022e", name: "uniswapV3Swap" },
  { method_id: "0x0162e2d0", name: "swapETHForExactTokens" },
];

export const METHOD_NAME_BY_ID: ReadonlyMap<string, string> = new Map(
  KNOWN_METHODS.map((m) => [m.method_id, m.name]),
);
/** Blockscout matches names as sent after lower-casing (so `transferfrom` finds nothing: its keys are camelCase). */
export const METHOD_ID_BY_NAME: ReadonlyMap<string, Hex> = new Map(
  KNOWN_METHODS.map((m) => [m.name, m.method_id]),
);

/** Blockscout's caps: 20 methods, 20 token contracts per list. Lookout caps each address list at 20 too. */
export const LIST_LIMIT = 20;

export const TRANSACTION_TYPES = ["COIN_TRANSFER", "CONTRACT_INTERACTION", "CONTRACT_CREATION"] as const;
const ALLOWED_TYPES = new Set<string>([
  ...TRANSACTION_TYPES,
  "ERC-20",
  "ERC-404",
  "ERC-721",
  "ERC-1155",
  "ERC-7984",
]);

/** An address list of the request after Blockscout's process_address_inclusion: the include list wins. */
export type Inclusion = { mode: "include" | "exclude"; addresses: Address[] } | null;

/** Amounts in whole units (ether, or token units after decimals), as decimal strings PostgreSQL reads as numeric. */
export type AmountRange = { from: string | null; to: string | null };

/** The request's filters as Blockscout's AdvancedFilterController.extract_filters reads them. */
export type AdvancedFilters = {
  /** Upper-case types; null (absent) and [] (none allowed) both mean every kind of item. */
  transactionTypes: string[] | null;
  /** Lower-case 4-byte selectors, `0x` + 8 hex digits; null for none. */
  methods: Hex[] | null;
  age: { from: Date | null; to: Date | null };
  from: Inclusion;
  to: Inclusion;
  /** "and" needs both sides to match; anything else ("or", absent, unknown) either side. */
  relation: "and" | "or";
  amount: AmountRange;
  /** Token contracts (and `native` for the coin) as sent, each list capped at 20. */
  tokens: { include: Array<Address | "native">; exclude: Array<Address | "native"> };
};

export type AdvancedFilterQuery = Partial<Record<string, string | number>> & { [K in FilterKey]?: string };

type FilterKey =
  | "transaction_types"
  | "methods"
  | "methods_names"
  | "age_from"
  | "age_to"
  | "from_address_hashes_to_include"
  | "from_address_hashes_to_exclude"
  | "to_address_hashes_to_include"
  | "to_address_hashes_to_exclude"
  | "address_relation"
  | "amount_from"
  | "amount_to"
  | "token_contract_address_hashes_to_include"
  | "token_contract_address_hashes_to_exclude"
  | "block_number"
  | "transaction_index"
  | "internal_transaction_index"
  | "token_transfer_index"
  | "token_transfer_batch_index";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SELECTOR = /^0x[0-9a-f]{8}$/;
// DateTime.from_iso8601: a date, a time and an offset (a date alone is not a DateTime).
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/;
// Decimal.parse with nothing left over (infinities and NaN are left out: no amount compares with them). The
// exponent and the length are bounded so that PostgreSQL's numeric takes every value that passes.
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d{1,3})?$/;

const splitList = (raw: string | undefined) => (raw === undefined ? null : raw.split(","));

function addresses(raw: string | undefined): Address[] | null {
  const list = splitList(raw);
  return list ? list.filter((a) => ADDRESS.test(a)).map((a) => a.toLowerCase() as Address) : null;
}

function tokenAddresses(raw: string | undefined): Array<Address | "native"> {
  const list = splitList(raw) ?? [];
  const out: Array<Address | "native"> = [];
  for (const a of list) {
    if (a.toLowerCase() === "native") out.push("native");
    else if (ADDRESS.test(a)) out.push(a.toLowerCase() as Address);
  }
  return out.slice(0, LIST_LIMIT);
}

/** process_address_inclusion: the include list less the excluded addresses; else the exclude list; else none. */
export function inclusion<T extends string>(
  include: T[] | null,
  exclude: T[] | null,
): {
  mode: "include" | "exclude";
  addresses: T[];
} | null {
  if (include && include.length > 0) {
    const left = include.filter((a) => !(exclude ?? []).includes(a));
    return left.length ? { mode: "include", addresses: [...new Set(left)] } : null;
  }
  return exclude && exclude.length > 0 ? { mode: "exclude", addresses: [...new Set(exclude)] } : null;
}

function date(raw: string | undefined): Date | null {
  if (raw === undefined || !ISO_DATETIME.test(raw)) return null;
  const d = new Date(raw.replace(" ", "T"));
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A decimal as PostgreSQL's numeric input reads it (exponents included). */
const decimal = (raw: string | undefined) =>
  raw !== undefined && raw.length <= 100 && DECIMAL.test(raw) ? raw : null;

function methods(raw: string | undefined, names: string | undefined): Hex[] | null {
  const ids =
    raw === undefined
      ? null
      : [...new Set(raw.toLowerCase().split(","))].filter((m) => SELECTOR.test(m)).slice(0, LIST_LIMIT);
  const byName =
    names === undefined
      ? null
      : names
          .split(",")
          .map((n) => METHOD_ID_BY_NAME.get(n.trim().toLowerCase()))
          .filter((m): m is Hex => m !== undefined);
  if (ids === null && byName === null) return null;
  const merged = [...new Set([...(ids ?? []), ...(byName ?? [])])].slice(0, LIST_LIMIT) as Hex[];
  return merged.length ? merged : null;
}

/** The filters of a request (unknown or malformed entries dropped, as Blockscout drops them). Pure. */
export function parseFilters(q: AdvancedFilterQuery): AdvancedFilters {
  const types = q.transaction_types;
  const cap = (a: Address[] | null) => (a ? a.slice(0, LIST_LIMIT) : null);
  return {
    transactionTypes:
      types === undefined
        ? null
        : [...new Set(types.toUpperCase().split(","))].filter((t) => ALLOWED_TYPES.has(t)),
    methods: methods(q.methods, q.methods_names),
    age: { from: date(q.age_from), to: date(q.age_to) },
    from: inclusion(
      cap(addresses(q.from_address_hashes_to_include)),
      cap(addresses(q.from_address_hashes_to_exclude)),
    ),
    to: inclusion(
      cap(addresses(q.to_address_hashes_to_include)),
      cap(addresses(q.to_address_hashes_to_exclude)),
    ),
    relation: q.address_relation?.toLowerCase() === "and" ? "and" : "or",
    amount: { from: decimal(q.amount_from), to: decimal(q.amount_to) },
    tokens: {
      include: tokenAddresses(q.token_contract_address_hashes_to_include),
      exclude: tokenAddresses(q.token_contract_address_hashes_to_exclude),
    },
  };
}

/** Which of the three lists a request reads (AdvancedFilter.maybe_add_*_queries). */
export function sources(f: AdvancedFilters): { transactions: boolean; transfers: boolean } {
  const types = f.transactionTypes ?? [];
  const isTxType = (t: string) => (TRANSACTION_TYPES as readonly string[]).includes(t);
  const { include, exclude } = f.tokens;
  return {
    transactions:
      (types.length === 0 || types.some(isTxType)) &&
      (include.length === 0 || include.includes("native")) &&
      !exclude.includes("native"),
    transfers:
      (types.length === 0 || types.some((t) => !isTxType(t))) &&
      (include.length === 0 || include.some((t) => t !== "native")),
  };
}

/** Blockscout's keyset of the list: the last item's position; the three indexes are null where they do not apply. */
export type AdvancedFilterCursor = {
  blockNumber: number;
  transactionIndex: number;
  internalIndex: number | null;
  transferIndex: number | null;
  /** The reverse position inside an ERC-1155 batch (1 for the last entry, and for a single transfer). */
  transferBatchIndex: number | null;
};

const nullableIndex = (raw: string | undefined): number | null | undefined => {
  if (raw === undefined || raw === "" || raw === "null") return null;
  return /^\d+$/.test(raw) && Number(raw) <= 2 ** 31 - 1 ? Number(raw) : undefined;
};

/**
 * The cursor of the request: block_number and transaction_index (both needed), and the nullable indexes (absent,
 * empty or `null` mean null). Null: the first page.
 */
export function parseCursor(q: AdvancedFilterQuery): AdvancedFilterCursor | null {
  const bn = q.block_number;
  const ti = q.transaction_index;
  if (bn === undefined || ti === undefined || !/^\d+$/.test(bn) || !/^\d+$/.test(ti)) return null;
  const internalIndex = nullableIndex(q.internal_transaction_index);
  const transferIndex = nullableIndex(q.token_transfer_index);
  const transferBatchIndex = nullableIndex(q.token_transfer_batch_index);
  if (internalIndex === undefined || transferIndex === undefined || transferBatchIndex === undefined)
    return null;
  const blockNumber = Number(bn);
  const transactionIndex = Number(ti);
  if (!Number.isSafeInteger(blockNumber) || transactionIndex > 2 ** 31 - 1) return null;
  return { blockNumber, transactionIndex, internalIndex, transferIndex, transferBatchIndex };
}
