import type { Address, Hex } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { Gateways } from "../../token-workers/metadata/index.js";
import type { AddressObject } from "../objects/address-view.js";
import { checksummed } from "../objects/checksum.js";
import { type TokenInstanceObject, tokenInstanceView } from "../objects/token-instance-view.js";
import { type TokenObject, tokenFactsFromRow, tokenView } from "../objects/token-view.js";
import { usecTimestamp } from "../timestamp.js";
import type { TokenTransferRow } from "./query.js";

const ZERO = "0x0000000000000000000000000000000000000000";

/** Blockscout's TokenTransferView "token_transfer.json". */
export type TokenTransferItem = {
  transaction_hash: Hex;
  from: AddressObject;
  to: AddressObject;
  total: TokenTotal | null;
  token: TokenObject | null;
  type: "token_transfer" | "token_burning" | "token_minting" | "token_spawning";
  timestamp: string;
  method: string | null;
  block_hash: Hex;
  block_number: number;
  log_index: number;
  token_type: string | null;
};

export type TokenTotal =
  | { value: string; decimals: string | null }
  | { token_id: string | null; token_instance: TokenInstanceObject | null }
  | {
      token_id: string | null;
      /** Null for an ERC-404 token moved as an NFT (ERC721Transfer): Blockscout stores no amount for it. */
      value: string | null;
      decimals: string | null;
      token_instance: TokenInstanceObject | null;
    };

/** Chain.get_token_transfer_type: the zero address on one side makes it a mint or a burn, on both a spawn. */
export function transferType(from: string, to: string): TokenTransferItem["type"] {
  if (to === ZERO) return from === ZERO ? "token_spawning" : "token_burning";
  return from === ZERO ? "token_minting" : "token_transfer";
}

/**
 * TokenTransfer.token_transfer_amount_for_api: value for fungible, id for ERC-721, both for ERC-1155/404 ids; an id
 * carries its instance (metadata and media; no owner, as in Blockscout's transfer lists).
 */
export function transferTotal(
  type: string | null,
  r: TokenTransferRow,
  token: TokenObject | null,
  gateways: Partial<Gateways>,
): TokenTotal | null {
  if (r.token_id === null) {
    // ERC-404's fungible side names its missing id and instance (the frontend's Erc404TotalPayload).
    return type === "ERC-404"
      ? { value: r.amount, decimals: r.t_decimals, token_id: null, token_instance: null }
      : { value: r.amount, decimals: r.t_decimals };
  }
  const instance = tokenInstanceView({
    id: r.token_id,
    metadata: r.metadata,
    token,
    unique: type === "ERC-721",
    owner: null,
    holder: null,
    gateways,
  });
  if (type === "ERC-721") return { token_id: r.token_id, token_instance: instance };
  // An ERC-404 row with an id is the NFT side (its stored amount, 1, counts the NFT for balances, not fungible units).
  const value = type === "ERC-404" ? null : r.amount;
  return { token_id: r.token_id, value, decimals: r.t_decimals, token_instance: instance };
}

export type TransferContext = {
  addresses: ReadonlyMap<Address, AddressObject>;
  /** Method names of the transfers' transactions, when known. */
  methods?: ReadonlyMap<Hex, string | null>;
  gateways?: Partial<Gateways>;
  /** Token objects already rendered for this page, by token address: a page's rows mostly share one token. */
  tokens?: Map<string, TokenObject | null>;
};

export function tokenTransferView(r: TokenTransferRow, ctx: TransferContext): TokenTransferItem {
  const from = fromBytea(r.from_address);
  const to = fromBytea(r.to_address);
  const tx = fromBytea(r.transaction_hash);
  const key = fromBytea(r.token_address);
  let token = ctx.tokens?.get(key);
  if (token === undefined) {
    token = r.t_address ? tokenView(tokenFactsFromRow(checksummed(key), r)) : null;
    ctx.tokens?.set(key, token);
  }
  return {
    transaction_hash: tx,
    from: ctx.addresses.get(from as Address)!,
    to: ctx.addresses.get(to as Address)!,
    total: transferTotal(r.t_type, r, token, ctx.gateways ?? {}),
    token,
    type: transferType(from, to),
    timestamp: usecTimestamp(r.timestamp),
    method: ctx.methods?.get(tx) ?? null,
    block_hash: fromBytea(r.block_hash),
    block_number: r.block_number,
    log_index: r.log_index,
    token_type: r.t_type,
  };
}

/**
 * Blockscout's cursor of token-transfer lists ({block_number, index}); the row of an ERC-1155 batch is added when
 * the page ends inside a batch (Lookout keeps one row per id where Blockscout keeps one per log).
 */
export function transferCursor(r: TokenTransferRow) {
  return {
    block_number: r.block_number,
    index: r.log_index,
    ...(r.batch_index > 0 ? { batch_index: r.batch_index } : {}),
  };
}
