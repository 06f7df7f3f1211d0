import { describe, expect, it } from "vitest";
import { type OpColumns, opExtraFee, operatorFee, opMembers } from "./op-stack.js";

const op = (o: Partial<OpColumns>): OpColumns => ({
  op_row: true,
  op_is_deposit: false,
  op_l1_fee: null,
  op_l1_gas_price: null,
  op_l1_gas_used: null,
  op_l1_fee_scalar: null,
  op_operator_fee_scalar: null,
  op_operator_fee_constant: null,
  op_da_footprint_gas_scalar: null,
  ...o,
});

describe("OP-stack fee members (Blockscout's optimism chain type)", () => {
  it("operator fee: Isthmus divides the scalar by 10^6, Jovian (a DA footprint scalar in the receipt) multiplies by 100", () => {
    const isthmus = op({ op_operator_fee_scalar: "300", op_operator_fee_constant: "400" });
    expect(operatorFee(isthmus, 100_000n)).toBe((100_000n * 300n) / 1_000_000n + 400n);
    const jovian = { ...isthmus, op_da_footprint_gas_scalar: "400" };
    expect(operatorFee(jovian, 100_000n)).toBe(100_000n * 300n * 100n + 400n);
    expect(operatorFee(op({}), 100_000n)).toBe(0n);
  });

  it("the fee beside gas: L1 fee and operator fee, nothing for a deposit or a transaction of another chain", () => {
    expect(opExtraFee(op({ op_l1_fee: "1000", op_operator_fee_constant: "5" }), 21_000n)).toBe(1005n);
    expect(opExtraFee(op({ op_is_deposit: true, op_l1_fee: "1000" }), 21_000n)).toBe(0n);
    expect(opExtraFee(op({ op_row: false, op_l1_fee: null }), 21_000n)).toBe(0n);
  });

  it("the details page's members: 0 for what the receipt lacked, operator fee and DA scalar only when there", () => {
    expect(opMembers(op({ op_l1_fee: "7", op_l1_fee_scalar: "0.684" }), 21_000n)).toEqual({
      l1_fee: "7",
      l1_fee_scalar: "0.684",
      l1_gas_price: "0",
      l1_gas_used: "0",
    });
    expect(
      opMembers(op({ op_operator_fee_constant: "9", op_da_footprint_gas_scalar: "1" }), 21_000n),
    ).toMatchObject({ operator_fee: "9", da_footprint_gas_scalar: "1" });
    expect(opMembers(op({ op_row: false }), 21_000n)).toEqual({});
  });
});
