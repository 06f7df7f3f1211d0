import { getAddress } from "viem";
import { fromBytea } from "../../db/bytes.js";
import { type TokenObject, tokenFactsFromRow, tokenView } from "../objects/token-view.js";
import type { TokenBalanceRow } from "./query.js";

/** The frontend's AddressTokenBalance (AddressView prepare_token_balance). */
export type TokenBalanceItem = {
  token: TokenObject;
  token_id: string | null;
  value: string;
  token_instance: null;
};

export function tokenBalanceView(r: TokenBalanceRow): TokenBalanceItem {
  return {
    token: tokenView(tokenFactsFromRow(getAddress(fromBytea(r.token_address)), r)),
    token_id: r.token_id,
    value: r.value,
    token_instance: null,
  };
}

/** Blockscout's order of a holder's tokens (no fiat values here): value desc, then token and id for a total order. */
type BalanceKey = Pick<TokenBalanceRow, "value" | "token_address" | "token_id">;

export function compareBalances(a: BalanceKey, b: BalanceKey): number {
  const va = BigInt(a.value);
  const vb = BigInt(b.value);
  if (va !== vb) return va > vb ? -1 : 1;
  const ta = fromBytea(a.token_address);
  const tb = fromBytea(b.token_address);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return Number(BigInt(a.token_id ?? -1) - BigInt(b.token_id ?? -1));
}

export type TokensCursor = { value: string; tokenAddress: string; tokenId: string | null };

/** Rows after the cursor in compareBalances order. */
export function afterCursor(rows: readonly TokenBalanceRow[], c: TokensCursor | null): TokenBalanceRow[] {
  const sorted = [...rows].sort(compareBalances);
  if (!c) return sorted;
  const pivot: BalanceKey = {
    value: c.value,
    token_address: Buffer.from(c.tokenAddress.slice(2).toLowerCase(), "hex"),
    token_id: c.tokenId,
  };
  return sorted.filter((r) => compareBalances(r, pivot) > 0);
}

/** next_page_params of /addresses/{h}/tokens: the frontend's fields plus the token (and id) that break ties. */
export function tokensCursor(r: TokenBalanceRow) {
  return {
    token_name: r.t_name,
    token_type: r.t_type,
    value: r.value,
    fiat_value: null,
    token_contract_address_hash: getAddress(fromBytea(r.token_address)),
    ...(r.token_id !== null ? { token_id: r.token_id } : {}),
  };
}
