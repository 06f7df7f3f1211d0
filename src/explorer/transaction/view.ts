import { type Abi, type Address, decodeAbiParameters, type Hex } from "viem";
import { fromBytea, fromByteaOrNull } from "../../db/bytes.js";
import { type DecodedInput, decodeErrorData, methodName } from "../decoding/function-input.js";
import type { AddressObject } from "../objects/address-view.js";
import { checksummed } from "../objects/checksum.js";
import { usecTimestamp } from "../timestamp.js";
import { type OpMembers, opExtraFee, opMembers } from "./op-stack.js";
import type { AuthorizationRow, TransactionRow } from "./query.js";

/** What a page of transactions shares: the head (confirmations), block time, address objects, decoded inputs. */
export type TransactionContext = {
  head: number;
  averageBlockTimeMs: number;
  addresses: ReadonlyMap<Address, AddressObject>;
  /** Decoded input by transaction hash, where the callee's ABI is verified. */
  decoded: ReadonlyMap<Hex, DecodedInput>;
  /** Verified ABIs of the callees (lower-case address): a custom error's revert data decodes with them. */
  abis?: ReadonlyMap<Address, Abi>;
  /** The details page (`/transactions/{hash}`): the revert reason is decoded; lists carry it raw, as Blockscout's. */
  single?: boolean;
  /** Token transfers of a single transaction (the details page); lists carry none (null), as Blockscout's. */
  tokenTransfers?: { items: unknown[]; overflow: boolean };
  // `single` also shows chain-family members (OP stack's L1 fee), on the details page only.
  /** The authorization list of a single set-code transaction (the details page; lists carry [], as Blockscout's). */
  authorizations?: readonly AuthorizationRow[];
};

/**
 * One EIP-7702 authorization: the frontend's TxAuthorization (address_hash, authority, chain_id, nonce) plus
 * Blockscout's signature and verdict members (v, r, s, status).
 */
export type AuthorizationItem = {
  address_hash: Address;
  authority: Address | null;
  chain_id: number | string;
  nonce: number | string;
  v: number | string;
  r: string;
  s: string;
  status: string;
};

export type Fee = { type: "actual" | "maximum"; value: string | null };

/** Blockscout's Transaction object (TransactionView prepare_transaction), default chain type. */
export type TransactionObject = {
  hash: Hex;
  result: string;
  status: "ok" | "error" | null;
  block_number: number | null;
  block_hash?: Hex;
  timestamp: string | null;
  from: AddressObject;
  to: AddressObject | null;
  created_contract: AddressObject | null;
  confirmations: number;
  confirmation_duration: number[];
  value: string;
  fee: Fee;
  gas_price: string | null;
  type: number | null;
  gas_used: string | null;
  gas_limit: string;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  base_fee_per_gas: string | null;
  priority_fee: string | null;
  transaction_burnt_fee: string | null;
  nonce: number;
  position: number | null;
  revert_reason: DecodedInput | { raw: string | null } | null;
  raw_input: Hex;
  decoded_input: DecodedInput | null;
  token_transfers: unknown[] | null;
  token_transfers_overflow: boolean | null;
  exchange_rate: null;
  historic_exchange_rate: null;
  method: string | null;
  transaction_types: string[];
  transaction_tag: null;
  actions: [];
  has_error_in_internal_transactions: boolean | null;
  authorization_list: AuthorizationItem[];
  is_pending_update: boolean;
  fhe_operations_count: number;
  blob_versioned_hashes?: Hex[];
  blob_gas_used?: string;
  blob_gas_price?: string;
  burnt_blob_fee?: string;
  max_fee_per_blob_gas?: string;
} & OpMembers;

/** A number where it is one exactly (the frontend's type); beyond 2^53 the decimal string, never a rounded value. */
const exactNumber = (s: string): number | string => (Number.isSafeInteger(Number(s)) ? Number(s) : s);

export function authorizationItem(a: AuthorizationRow): AuthorizationItem {
  return {
    address_hash: checksummed(fromBytea(a.address)),
    authority: a.authority ? checksummed(fromBytea(a.authority)) : null,
    chain_id: exactNumber(a.chain_id),
    nonce: exactNumber(a.nonce),
    v: exactNumber(a.v),
    r: a.r,
    s: a.s,
    status: a.status,
  };
}

const big = (s: string | null): bigint | null => (s === null ? null : BigInt(s));
const str = (n: bigint | null): string | null => (n === null ? null : n.toString());
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** Transaction.priority_fee_per_gas: min(max priority fee, max fee - base fee); null without either. */
export function priorityFeePerGas(maxPriority: bigint | null, base: bigint | null, maxFee: bigint | null) {
  if (maxPriority === null || base === null) return null;
  return maxFee === null ? maxPriority : min(maxPriority, maxFee - base);
}

/** The fee and gas fields as Blockscout computes them, from the stored transaction and its block's base fee. */
export function feeFields(r: TransactionRow) {
  const base = big(r.base_fee_per_gas);
  const gasUsed = BigInt(r.gas_used);
  const maxFee = big(r.max_fee_per_gas);
  const maxPriority = big(r.max_priority_fee_per_gas);
  // A mined transaction's gasPrice is what it paid per gas; the receipt's effectiveGasPrice says the same.
  const price = big(r.gas_price) ?? big(r.effective_gas_price);
  const prio = priorityFeePerGas(maxPriority, base, maxFee);
  const burnt = maxFee === null || base === null ? null : maxFee === 0n ? 0n : base * gasUsed;
  return {
    // OP stack: the L1 data fee and the operator fee are part of what the sender paid (none for a deposit).
    fee: {
      type: "actual",
      value: str(price === null ? null : price * gasUsed + opExtraFee(r, gasUsed)),
    } as Fee,
    gas_price: str(price),
    base_fee_per_gas: str(base),
    priority_fee: str(prio === null ? null : prio * gasUsed),
    transaction_burnt_fee: str(burnt),
  };
}

/** Chain.transaction_to_status, rendered: "success", the top frame's error, or "awaiting_internal_transactions". */
export function transactionResult(r: TransactionRow): string {
  if (r.status === 1) return "success";
  if (r.status === null) return "awaiting_internal_transactions";
  return r.error ?? "awaiting_internal_transactions";
}

const ERROR_STRING = "0x08c379a0";
const PANIC_UINT = "0x4e487b71";

/**
 * The revert reason of a reverted transaction, from the return data of its top frame, as Blockscout's
 * TransactionView renders it: on the details page Error(string) and Panic(uint256) decoded with Blockscout's default
 * error ABI (whose Panic parameter is `errorCode`), else the callee's verified ABI (its custom errors), else `{raw}`;
 * in lists always `{raw}`.
 */
export function revertReason(
  r: TransactionRow,
  result: string,
  o: { single?: boolean | undefined; abi?: Abi | undefined } = {},
): TransactionObject["revert_reason"] {
  if (!result.toLowerCase().includes("reverted")) return null;
  const raw = fromByteaOrNull(r.output);
  if (!o.single || !raw || raw.length < 10) return { raw };
  const selector = raw.slice(0, 10).toLowerCase();
  const named =
    selector === ERROR_STRING
      ? { call: "Error(string reason)", name: "reason", type: "string" }
      : selector === PANIC_UINT
        ? { call: "Panic(uint256 errorCode)", name: "errorCode", type: "uint256" }
        : null;
  if (named) {
    try {
      const [value] = decodeAbiParameters([{ type: named.type }], `0x${raw.slice(10)}`);
      return {
        method_id: selector.slice(2),
        method_call: named.call,
        parameters: [{ name: named.name, type: named.type, value: String(value) }],
      };
    } catch {
      // Not well-formed: shown raw below.
    }
  }
  return (o.abi && decodeErrorData(o.abi, raw)) || { raw };
}

/** TransactionView.transaction_types, default chain type, in Blockscout's order. */
export function transactionTypes(r: TransactionRow, toIsContract: boolean): string[] {
  const types: string[] = [];
  if (BigInt(r.value) > 0n) types.push("coin_transfer");
  if (toIsContract) types.push("contract_call");
  if (r.to_address === null) types.push("contract_creation");
  if (r.creates_token) types.push("token_creation");
  if (r.has_token_transfers) types.push("token_transfer");
  if (r.type === 3) types.push("blob_transaction");
  if (r.type === 4) types.push("set_code_transaction");
  return types;
}

/** One transaction as Blockscout renders it. Pure. */
export function transactionView(r: TransactionRow, ctx: TransactionContext): TransactionObject {
  const hash = fromBytea(r.hash);
  const addr = (a: Uint8Array | null) => (a ? ctx.addresses.get(fromBytea(a) as Address)! : null);
  const to = addr(r.to_address);
  const input = fromBytea(r.input);
  const decoded = ctx.decoded.get(hash) ?? null;
  const result = transactionResult(r);
  const toIsContract = to?.is_contract ?? false;
  const obj: TransactionObject = {
    hash,
    result,
    status: r.status === null ? null : r.status === 1 ? "ok" : "error",
    block_number: r.block_number,
    timestamp: usecTimestamp(r.timestamp),
    from: addr(r.from_address)!,
    to,
    created_contract: addr(r.contract_address),
    confirmations: Math.max(1 + ctx.head - r.block_number, 1),
    // Lookout sees no mempool, so only the average block time bounds the confirmation (as Blockscout without
    // a first-seen time).
    confirmation_duration: ctx.averageBlockTimeMs > 0 ? [0, ctx.averageBlockTimeMs] : [],
    value: r.value,
    ...feeFields(r),
    type: r.type,
    gas_used: r.gas_used,
    gas_limit: r.gas,
    max_fee_per_gas: r.max_fee_per_gas,
    max_priority_fee_per_gas: r.max_priority_fee_per_gas,
    nonce: r.nonce,
    position: r.index,
    revert_reason: revertReason(r, result, {
      single: ctx.single,
      abi: r.to_address ? ctx.abis?.get(fromBytea(r.to_address) as Address) : undefined,
    }),
    raw_input: input,
    decoded_input: decoded,
    token_transfers: ctx.tokenTransfers ? ctx.tokenTransfers.items : null,
    token_transfers_overflow: ctx.tokenTransfers ? ctx.tokenTransfers.overflow : null,
    exchange_rate: null,
    historic_exchange_rate: null,
    method: methodName(decoded, input, toIsContract),
    transaction_types: transactionTypes(r, toIsContract),
    transaction_tag: null,
    actions: [],
    has_error_in_internal_transactions: r.traced ? r.internal_error : null,
    authorization_list: (ctx.authorizations ?? []).map(authorizationItem),
    is_pending_update: false,
    fhe_operations_count: 0,
  };
  if (ctx.single) Object.assign(obj, opMembers(r, BigInt(r.gas_used)));
  if (r.type === 3) {
    obj.blob_versioned_hashes = (r.blob_versioned_hashes ?? []).map(fromBytea);
    if (r.blob_gas_used !== null) obj.blob_gas_used = r.blob_gas_used;
    if (r.blob_gas_price !== null) obj.blob_gas_price = r.blob_gas_price;
    if (r.blob_gas_used !== null && r.blob_gas_price !== null)
      obj.burnt_blob_fee = (BigInt(r.blob_gas_used) * BigInt(r.blob_gas_price)).toString();
    if (r.max_fee_per_blob_gas !== null) obj.max_fee_per_blob_gas = r.max_fee_per_blob_gas;
  }
  return obj;
}
