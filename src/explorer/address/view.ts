import { type Address, getAddress } from "viem";
import { fromByteaOrNull } from "../../db/bytes.js";
import type { CoinBalanceSummary } from "../coin-balance/view.js";
import type { AddressObject } from "../objects/address-view.js";
import { type TokenObject, tokenFactsFromRow, tokenView } from "../objects/token-view.js";
import type { AddressRow } from "./query.js";

export type AddressDetails = AddressObject &
  CoinBalanceSummary & {
    creator_address_hash: string | null;
    creation_transaction_hash: string | null;
    creation_status: "success" | "selfdestructed" | null;
    token: TokenObject | null;
    exchange_rate: null;
    has_validated_blocks: boolean;
    has_logs: boolean;
    has_tokens: boolean;
    has_token_transfers: boolean;
    has_beacon_chain_withdrawals: boolean;
    watchlist_address_id: null;
  };

function checksumOrNull(a: string | null): string | null {
  return a ? getAddress(a) : null;
}

/** GET /addresses/{h}: the address object, its balance summary and the statement's creation, token and flags. Pure. */
export function addressDetailsView(
  address: Address,
  base: AddressObject,
  balance: CoinBalanceSummary,
  r: AddressRow,
): AddressDetails {
  return {
    ...base,
    ...balance,
    creator_address_hash: checksumOrNull(fromByteaOrNull(r.creator)),
    creation_transaction_hash: fromByteaOrNull(r.creation_tx),
    // Blockscout's AddressContractView.contract_creation_code: "selfdestructed" when the creation left no code, as
    // the smart-contract route says (a failed creation makes no contract: no creation here, null).
    creation_status: r.creation_tx ? (r.code_gone ? "selfdestructed" : "success") : null,
    token: r.t_address ? tokenView(tokenFactsFromRow(address, r)) : null,
    exchange_rate: null,
    has_validated_blocks: r.has_validated_blocks,
    has_logs: r.has_logs,
    has_tokens: r.has_tokens,
    has_token_transfers: r.has_token_transfers,
    has_beacon_chain_withdrawals: r.has_withdrawals,
    watchlist_address_id: null,
  };
}
