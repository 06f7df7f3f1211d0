import { Type } from "@sinclair/typebox";
import type { Hex } from "viem";
import { InvalidInputError } from "../../errors/base.js";
import { FULL_HASH_PATTERN } from "../errors.js";
import { txCursor } from "../params.js";

// The request parameters of the transaction lists that Blockscout reads as filters and sort orders
// (paging_helper.ex): what each accepts (query schemas) and what it asks of the queries.

/**
 * Blockscout's transaction types (General.allowed_transaction_types, blob_transaction as on Ethereum) and the
 * predicate each names, written as the partial indexes of migration 100 are (the planner matches the text): a
 * transaction that moves coin, calls a contract, creates one, moves tokens, creates a token, carries blobs. They
 * mean what `transaction_types` of the transaction view says.
 */
export const TRANSACTION_TYPE_PREDICATES = {
  coin_transfer: "t.value > 0",
  contract_call: "t.to_is_contract",
  contract_creation: "t.to_address is null",
  token_transfer: "t.has_token_transfers",
  token_creation: "t.creates_token",
  blob_transaction: "t.type = 3",
} as const;

export type TransactionType = keyof typeof TRANSACTION_TYPE_PREDICATES;

/** The method names Blockscout's filter knows (Transaction @method_name_to_id_map), as selectors. */
export const METHOD_NAMES: Readonly<Record<string, Hex>> = {
  approve: "0x095ea7b3",
  transfer: "0xa9059cbb",
  multicall: "0x5ae401dc",
  mint: "0x40c10f19",
  commit: "0xf14fcbc8",
};

const TYPE = `(${Object.keys(TRANSACTION_TYPE_PREDICATES).join("|")})`;
const METHOD = `(${Object.keys(METHOD_NAMES).join("|")}|(0x)?[0-9A-Fa-f]{8})`;

/** `type` and `method` of `/transactions`: comma lists, optionally in brackets (as Blockscout's parse_filter reads). */
export const TRANSACTION_FILTER_QUERY = {
  type: Type.Optional(
    Type.String({
      pattern: `^\\[?${TYPE}(,${TYPE})*\\]?$`,
      description: `Transaction types, comma-separated, any of them: ${Object.keys(TRANSACTION_TYPE_PREDICATES).join(", ")}`,
    }),
  ),
  method: Type.Optional(
    Type.String({
      // A page reads one index range per selector: a few dozen at most.
      maxLength: 300,
      pattern: `^\\[?${METHOD}(,${METHOD})*\\]?$`,
      description: `Method selectors (4 bytes, hex) or names (${Object.keys(METHOD_NAMES).join(", ")}), comma-separated, any of them`,
    }),
  ),
};

const list = (raw: string) => [...new Set(raw.replace(/^\[/, "").replace(/\]$/, "").split(","))];

/** The types a request keeps (null: every transaction). The schema let only known labels through. */
export function transactionTypes(raw: string | undefined): TransactionType[] | null {
  return raw ? (list(raw) as TransactionType[]) : null;
}

/** The selectors a request keeps, lower-case 0x-hex (null: every transaction). */
export function methodSelectors(raw: string | undefined): Hex[] | null {
  if (!raw) return null;
  return [
    ...new Set(list(raw).map((m) => METHOD_NAMES[m] ?? (`0x${m.replace(/^0x/, "").toLowerCase()}` as Hex))),
  ];
}

const Decimal = Type.String({ pattern: "^[0-9]{1,78}$" });

/** Blockscout's sort orders of an address's transactions (TransactionsSorting of the frontend). */
export type AddressTxSort = { by: "block_number" | "value" | "fee"; order: "asc" | "desc" };

/**
 * The keyset of a sorted page: the last item's position and, for value and fee, its key (a decimal; a fee the
 * transaction does not have is -1, below every fee, as Blockscout sorts nulls first ascending and last descending).
 */
export type SortedTxCursor = { blockNumber: number; index: number; key: string | null };

/** The fee's key when the cursor gives none (Blockscout's next_page_params say null for a missing fee). */
export const NO_FEE_KEY = "-1";

/**
 * `sort` and `order` of `/addresses/{h}/transactions` (the frontend's TransactionsSorting), and the members of
 * next_page_params beyond the position: the sort keys of the last item and Blockscout's tie-breakers (accepted,
 * not needed: the position orders).
 */
export const ADDRESS_TX_SORT_QUERY = {
  sort: Type.Optional(
    Type.Union([Type.Literal("block_number"), Type.Literal("value"), Type.Literal("fee")], {
      description: "Sort key (with `order`; without both, newest first)",
    }),
  ),
  order: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")])),
  value: Type.Optional(Decimal),
  fee: Type.Optional(Type.Union([Decimal, Type.Literal("null")])),
  inserted_at: Type.Optional(Type.String({ maxLength: 64 })),
  hash: Type.Optional(Type.String({ pattern: FULL_HASH_PATTERN })),
};

/** Blockscout's address_transactions_sorting: both `sort` and `order`, or the default order (null). */
export function addressTxSort(q: {
  sort?: AddressTxSort["by"];
  order?: AddressTxSort["order"];
}): AddressTxSort | null {
  return q.sort && q.order ? { by: q.sort, order: q.order } : null;
}

/** The cursor of a sorted page: the position and the key the sort pages by (a fee may be null: -1). */
export function sortedTxCursor(
  q: { block_number?: number; index?: number; value?: string; fee?: string },
  sort: AddressTxSort | null,
): SortedTxCursor | null {
  const at = txCursor(q);
  if (!at) return null;
  if (sort?.by === "value") {
    if (q.value === undefined)
      throw new InvalidInputError("value is required to page by value", { field: "value" });
    return { ...at, key: q.value };
  }
  if (sort?.by === "fee") return { ...at, key: q.fee === undefined || q.fee === "null" ? NO_FEE_KEY : q.fee };
  return { ...at, key: null };
}
