import type { Address, Hex } from "viem";
import { fromBytea, fromByteaOrNull } from "../../db/bytes.js";
import { csvTimestamp, unitsXsd } from "../csv-export/values.js";
import { type DecodedInput, methodName } from "../decoding/function-input.js";
import type { AddressObject } from "../objects/address-view.js";
import { checksummed } from "../objects/checksum.js";
import { type TokenObject, tokenFactsFromRow, tokenView } from "../objects/token-view.js";
import { usecTimestamp } from "../timestamp.js";
import { type AdvancedFilterRow, KIND } from "./query.js";

/** AdvancedFilterView's item ("advanced_filters.json"); the frontend's AdvancedFilterResponseItem is its subset. */
export type AdvancedFilterItem = {
  hash: Hex;
  type: string;
  status: string;
  method: string | null;
  from: AddressObject;
  to: AddressObject | null;
  created_contract: AddressObject | null;
  value: string | null;
  total: TransferTotal | null;
  token: TokenObject | null;
  timestamp: string;
  block_number: number;
  transaction_index: number;
  internal_transaction_index: number | null;
  token_transfer_index: number | null;
  token_transfer_batch_index: number | null;
  fee: string | null;
};

/** TokenTransferView.prepare_token_transfer_total without an instance (the list preloads none). */
type TransferTotal =
  | { value: string | null; decimals: string | null }
  | { token_id: string | null; token_instance: null }
  | { token_id: string | null; value: string | null; decimals: string | null; token_instance: null };

export type AdvancedFilterCursorParams = {
  block_number: number;
  transaction_index: number;
  internal_transaction_index: number | null;
  token_transfer_index: number | null;
  token_transfer_batch_index: number | null;
};

/** Blockscout's position in a batch counts down to 1 at its last entry (1 for a single transfer). */
const batchPosition = (r: AdvancedFilterRow) => Number(r.batch_count ?? 1) - r.batch_index;

/** The keyset of the item (Blockscout's paging_params). */
export function advancedFilterCursor(r: AdvancedFilterRow): AdvancedFilterCursorParams {
  return {
    block_number: r.block_number,
    transaction_index: r.transaction_index,
    internal_transaction_index: r.kind === KIND.internal ? r.sub_index : null,
    token_transfer_index: r.kind === KIND.transfer ? r.sub_index : null,
    token_transfer_batch_index: r.kind === KIND.transfer ? batchPosition(r) : null,
  };
}

/** Chain.transaction_to_status, rendered (TransactionView.format_status). */
function status(r: AdvancedFilterRow): string {
  if (r.status === 1) return "success";
  if (r.status === null) return "awaiting_internal_transactions";
  return r.error ?? "awaiting_internal_transactions";
}

/** Transaction.fee for a transaction and its transfers; gas price x the frame's gas used for an internal one. */
function rawFee(r: AdvancedFilterRow): string | null {
  if (r.price === null) return null;
  if (r.kind === KIND.internal)
    return r.frame_gas_used === null ? null : (BigInt(r.price) * BigInt(r.frame_gas_used)).toString();
  return (BigInt(r.price) * BigInt(r.tx_gas_used)).toString();
}

function transferTotal(r: AdvancedFilterRow): TransferTotal | null {
  const type = r.t_type;
  if (r.token_id === null) return { value: r.amount, decimals: r.t_decimals };
  if (type === "ERC-721") return { token_id: r.token_id, token_instance: null };
  // ERC-404's NFT side carries no fungible amount (Blockscout stores none for it).
  return {
    token_id: r.token_id,
    value: type === "ERC-404" ? null : r.amount,
    decimals: r.t_decimals,
    token_instance: null,
  };
}

/** The input whose method the item shows: the frame's for an internal transaction, else the transaction's. */
export const itemInput = (r: AdvancedFilterRow): Hex =>
  r.kind === KIND.internal ? (fromByteaOrNull(r.frame_input) ?? "0x") : fromBytea(r.tx_input);

/** The contract whose ABI decodes itemInput: the frame's callee, else the transaction's. */
export const itemCallee = (r: AdvancedFilterRow): Address | null =>
  (r.kind === KIND.internal ? fromByteaOrNull(r.to_address) : fromByteaOrNull(r.tx_to)) as Address | null;

export type AdvancedFilterContext = {
  addresses: ReadonlyMap<Address, AddressObject>;
  /** Decoded inputs by row position (only rows whose callee is verified). */
  decoded: ReadonlyMap<number, DecodedInput | null>;
};

/**
 * The page's items (AdvancedFilterView.prepare_advanced_filter). As Blockscout's sanitize_fee, an item of the same
 * transaction as the item before it on the page shows fee 0, unless it is an internal transaction (its own gas).
 */
export function advancedFilterItems(
  rows: readonly AdvancedFilterRow[],
  ctx: AdvancedFilterContext,
  previousHashBefore?: string,
) {
  const items: AdvancedFilterItem[] = [];
  let previousHash: string | null = previousHashBefore ?? null;
  for (const [n, r] of rows.entries()) {
    const hash = fromBytea(r.hash);
    // Without address objects (the CSV export) the facts are not read: `is_contract` comes from the type alone.
    const obj = (a: Uint8Array | null) => (a ? (ctx.addresses.get(fromBytea(a) as Address) ?? null) : null);
    const to = obj(r.to_address);
    const input = itemInput(r);
    const decoded = ctx.decoded.get(n) ?? null;
    const transfer = r.kind === KIND.transfer;
    const token =
      transfer && r.t_address ? tokenView(tokenFactsFromRow(checksummed(fromBytea(r.t_address)), r)) : null;
    const type = transfer
      ? (r.t_type ?? "")
      : r.to_address === null
        ? "contract_creation"
        : (to?.is_contract ?? r.at_is_contract)
          ? "contract_interaction"
          : "coin_transfer";
    const fee = hash === previousHash && r.kind !== KIND.internal ? "0" : rawFee(r);
    previousHash = hash;
    items.push({
      hash,
      type,
      status: status(r),
      // A transfer is emitted by code: its transaction's method shows as for a contract callee.
      method: methodName(decoded, input, transfer || (to?.is_contract ?? r.at_is_contract ?? false)),
      from: obj(r.from_address)!,
      to,
      created_contract: obj(r.created_address),
      value: r.value,
      total: transfer ? transferTotal(r) : null,
      token,
      timestamp: usecTimestamp(r.timestamp),
      ...advancedFilterCursor(r),
      fee,
    });
  }
  return items;
}

/** The CSV header of `/advanced-filters/csv` (Explorer.Chain.CsvExport.AdvancedFilter). */
export const ADVANCED_FILTER_CSV_HEADER = [
  "TxHash",
  "Type",
  "MethodId",
  "UtcTimestamp",
  "FromAddress",
  "ToAddress",
  "CreatedContractAddress",
  "Value",
  "TokenContractAddressHash",
  "TokenDecimals",
  "TokenSymbol",
  "TokenValue",
  "TokenID",
  "BlockNumber",
  "Fee",
  "CurrentPrice",
  "TxDateOpeningPrice",
  "TxDateClosingPrice",
];

const checksumOrNull = (a: Uint8Array | null) => (a ? checksummed(fromBytea(a)) : null);

/** One CSV row of an item; prices are empty (no price source), as Blockscout's without market data. */
export function advancedFilterCsvRow(
  item: AdvancedFilterItem,
  r: AdvancedFilterRow,
): Array<string | number | null> {
  const input = itemInput(r);
  const transfer = r.kind === KIND.transfer;
  const total = item.total as {
    value?: string | null;
    decimals?: string | null;
    token_id?: string | null;
  } | null;
  const tokenValue =
    total?.value == null ? null : unitsXsd(total.value, total.decimals == null ? 0 : Number(total.decimals));
  return [
    item.hash,
    item.type,
    input.length >= 10 ? input.slice(0, 10) : null,
    csvTimestamp(r.timestamp),
    checksumOrNull(r.from_address),
    checksumOrNull(r.to_address),
    checksumOrNull(r.created_address),
    item.value,
    transfer ? checksumOrNull(r.token_address) : null,
    transfer ? (total?.decimals ?? null) : null,
    transfer ? r.t_symbol : null,
    transfer ? tokenValue : null,
    transfer ? (total?.token_id ?? null) : null,
    r.block_number,
    item.fee,
    null,
    null,
    null,
  ];
}
