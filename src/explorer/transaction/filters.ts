import { Type } from "@sinclair/typebox";
import type { Hex } from "viem";

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
