import type { Address } from "viem";
import type { Gateways } from "../../token-workers/metadata/index.js";
import type { AddressObject } from "../objects/address-view.js";
import type { TokenObject } from "../objects/token-view.js";
import type { TokenTransferRow } from "../token-transfer/query.js";
import { type TokenTotal, transferTotal } from "../token-transfer/view.js";

/** The frontend's TxStateChange (txStateChanges.ts), as Blockscout's TransactionView renders a state change. */
export type StateChangeObject = {
  address: AddressObject;
  is_miner: boolean;
  type: "coin" | "token";
  token: TokenObject | null;
  token_id: string | null;
  balance_before: string | null;
  balance_after: string | null;
  change: string | Array<{ direction: "from" | "to"; total: TokenTotal | null }>;
};

/** Blockscout shows no balances when either side would be negative (a balance it could not know). */
function balances(before: bigint | null, after: bigint | null) {
  return before === null || after === null || before < 0n || after < 0n
    ? { balance_before: null, balance_after: null }
    : { balance_before: before.toString(), balance_after: after.toString() };
}

export function coinStateChangeView(
  c: { before: bigint | null; after: bigint | null; change: bigint; isMiner: boolean },
  address: AddressObject,
): StateChangeObject {
  return {
    address,
    is_miner: c.isMiner,
    type: "coin",
    token: null,
    token_id: null,
    ...balances(c.before, c.after),
    change: c.change.toString(),
  };
}

/**
 * One holder's change of one token (one id of an ERC-1155). An ERC-721's change is the list of its transfers in
 * and out, each with its total (id and instance), as Blockscout lists them.
 */
export function tokenStateChangeView(
  c: { before: bigint | null; after: bigint | null; change: bigint },
  o: {
    holder: Address;
    address: AddressObject;
    token: TokenObject | null;
    tokenType: string | null;
    id: string | null;
    /** The transaction's transfers of this token touching the holder (ERC-721's change). */
    transfers: readonly TokenTransferRow[];
    from: (r: TokenTransferRow) => Address;
    gateways: Partial<Gateways>;
  },
): StateChangeObject {
  const change =
    o.tokenType === "ERC-721"
      ? o.transfers.map((r) => ({
          direction: o.from(r) === o.holder ? ("from" as const) : ("to" as const),
          total: transferTotal(o.tokenType, r, o.token, o.gateways),
        }))
      : c.change.toString();
  return {
    address: o.address,
    is_miner: false,
    type: "token",
    token: o.token,
    token_id: o.tokenType === "ERC-1155" ? o.id : null,
    ...balances(c.before, c.after),
    change,
  };
}
