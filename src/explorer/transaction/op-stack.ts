/**
 * OP-stack members of a transaction (op_transactions, written by indexer/stages/op-stack): the SQL that brings them
 * along with a transaction row (one primary-key probe) and their rendering as Blockscout's optimism chain type does.
 */

/** The op_transactions columns of a transaction row; all null where the transaction has no OP-stack row. */
export type OpColumns = {
  op_row: boolean;
  op_is_deposit: boolean | null;
  op_l1_fee: string | null;
  op_l1_gas_price: string | null;
  op_l1_gas_used: string | null;
  op_l1_fee_scalar: string | null;
  op_operator_fee_scalar: string | null;
  op_operator_fee_constant: string | null;
  op_da_footprint_gas_scalar: string | null;
};

export const OP_COLUMNS = `o.transaction_hash is not null as op_row, o.is_deposit as op_is_deposit,
  o.l1_fee::text as op_l1_fee, o.l1_gas_price::text as op_l1_gas_price, o.l1_gas_used::text as op_l1_gas_used,
  o.l1_fee_scalar::text as op_l1_fee_scalar, o.operator_fee_scalar::text as op_operator_fee_scalar,
  o.operator_fee_constant::text as op_operator_fee_constant,
  o.da_footprint_gas_scalar::text as op_da_footprint_gas_scalar`;

/** Joined to `transactions t`: one probe of the op_transactions primary key (nothing there on other chains). */
export const OP_JOIN = "left join op_transactions o on o.transaction_hash = t.hash";

/**
 * Blockscout's Transaction.operator_fee (Isthmus): gas used × operatorFeeScalar / 10^6 + operatorFeeConstant; from
 * Jovian on, gas used × scalar × 100 + constant. Blockscout tells them apart by the Jovian activation time; the
 * receipt's `daFootprintGasScalar`, which Jovian introduced, tells it here. 0 without the scalars.
 */
export function operatorFee(r: OpColumns, gasUsed: bigint): bigint {
  const scalar = r.op_operator_fee_scalar === null ? 0n : BigInt(r.op_operator_fee_scalar);
  const constant = r.op_operator_fee_constant === null ? 0n : BigInt(r.op_operator_fee_constant);
  if (scalar === 0n && constant === 0n) return 0n;
  return r.op_da_footprint_gas_scalar !== null
    ? gasUsed * scalar * 100n + constant
    : (gasUsed * scalar) / 1_000_000n + constant;
}

/**
 * What the sender paid beyond gas used × gas price (Blockscout's fee = L2 fee + L1 fee + operator fee): nothing for
 * a deposit (bought on L1) or a transaction of another chain family.
 */
export function opExtraFee(r: OpColumns, gasUsed: bigint): bigint {
  if (!r.op_row || r.op_is_deposit) return 0n;
  return (r.op_l1_fee === null ? 0n : BigInt(r.op_l1_fee)) + operatorFee(r, gasUsed);
}

/** The members Blockscout's optimism chain type adds to a transaction's details page. */
export type OpMembers = {
  l1_fee?: string;
  l1_fee_scalar?: string;
  l1_gas_price?: string;
  l1_gas_used?: string;
  da_footprint_gas_scalar?: string;
  operator_fee?: string;
};

/**
 * OptimismView.extend_transaction_json_response: the L1 fee members (Blockscout stores 0 for what the receipt
 * lacked, deposits included), the DA footprint scalar when the receipt had it, the operator fee when above 0 (never
 * for a deposit, which pays none; Blockscout would compute one from a deposit receipt's scalars).
 * `op_withdrawals` is left out: Lookout does not index the L1 side, so it cannot tell a withdrawal's status.
 */
export function opMembers(r: OpColumns, gasUsed: bigint): OpMembers {
  if (!r.op_row) return {};
  const out: OpMembers = {
    l1_fee: r.op_l1_fee ?? "0",
    l1_fee_scalar: r.op_l1_fee_scalar ?? "0",
    l1_gas_price: r.op_l1_gas_price ?? "0",
    l1_gas_used: r.op_l1_gas_used ?? "0",
  };
  if (r.op_da_footprint_gas_scalar !== null) out.da_footprint_gas_scalar = r.op_da_footprint_gas_scalar;
  const operator = r.op_is_deposit ? 0n : operatorFee(r, gasUsed);
  if (operator > 0n) out.operator_fee = operator.toString();
  return out;
}
