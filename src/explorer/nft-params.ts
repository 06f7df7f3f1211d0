import type { Address } from "viem";
import { InvalidInputError } from "../errors/base.js";

export type NftType = "ERC-721" | "ERC-1155" | "ERC-404";
/** The fixed order of the NFT list (spec README, NFT list). */
export const NFT_TYPES: readonly NftType[] = ["ERC-721", "ERC-1155", "ERC-404"];

/**
 * The token type labels upstream's `type` parameter accepts (its schema pattern, case-insensitive): a list of known
 * labels, optionally bracketed. An unknown label such as ERC-999 is a 422 there, so here too.
 */
export const TOKEN_TYPE_LIST =
  /^\[?(ERC-20|ERC-721|ERC-1155|ERC-404|ERC-7984)(,(ERC-20|ERC-721|ERC-1155|ERC-404|ERC-7984))*\]?$/i;

/**
 * `type` as upstream parses it: upper-cased, optional brackets, comma-split, only NFT types kept (ERC-20 and ERC-7984
 * are accepted and dropped), de-duplicated; empty means all. Anything else is malformed (422).
 */
export function parseNftTypes(raw: string | undefined): NftType[] {
  if (raw === undefined || raw === "") return [...NFT_TYPES];
  const v = raw.toUpperCase();
  if (!TOKEN_TYPE_LIST.test(v))
    throw new InvalidInputError(`Invalid value for type: "${raw}"`, { field: "type" });
  const wanted = new Set(v.replace(/^\[|\]$/g, "").split(","));
  const types = NFT_TYPES.filter((t) => wanted.has(t));
  return types.length ? types : [...NFT_TYPES];
}

export type NftCursor = { tokenAddress: Address; tokenId: bigint; tokenType: NftType };

/** The keyset cursor of next_page_params; all absent = first page. A partial cursor is malformed. */
export function parseNftCursor(q: {
  token_contract_address_hash?: string | undefined;
  token_id?: string | undefined;
  token_type?: string | undefined;
}): NftCursor | null {
  const { token_contract_address_hash: a, token_id: id, token_type: type } = q;
  if (a === undefined && id === undefined) return null;
  if (a === undefined)
    throw new InvalidInputError("token_contract_address_hash is required with token_id", {
      field: "token_contract_address_hash",
    });
  if (id === undefined)
    throw new InvalidInputError("token_id is required with token_contract_address_hash", {
      field: "token_id",
    });
  const tokenType = (type ?? "ERC-721") as NftType;
  if (!NFT_TYPES.includes(tokenType))
    throw new InvalidInputError(`Invalid value for token_type: "${type}"`, { field: "token_type" });
  return { tokenAddress: a.toLowerCase() as Address, tokenId: BigInt(id), tokenType };
}
