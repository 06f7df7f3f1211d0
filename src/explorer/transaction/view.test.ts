import { describe, expect, it } from "vitest";
import type { TransactionRow } from "./query.js";
import { feeFields, priorityFeePerGas, revertReason, transactionResult } from "./view.js";

const row = (o: Partial<TransactionRow>): TransactionRow =>
  ({
    gas_used: "21000",
    gas_price: null,
    effective_gas_price: null,
    max_fee_per_gas: null,
    max_priority_fee_per_gas: null,
    base_fee_per_gas: null,
    status: 1,
    error: null,
    output: null,
    ...o,
  }) as TransactionRow;

describe("transaction fee fields (Blockscout's Transaction.fee, priority_fee_per_gas, burnt_fees)", () => {
  it("EIP-1559: priority capped by max fee minus base fee, burnt = base fee x gas used", () => {
    const f = feeFields(
      row({
        gas_price: "12",
        max_fee_per_gas: "12",
        max_priority_fee_per_gas: "5",
        base_fee_per_gas: "10",
      }),
    );
    expect(f).toEqual({
      fee: { type: "actual", value: String(21000 * 12) },
      gas_price: "12",
      base_fee_per_gas: "10",
      priority_fee: String(21000 * 2),
      transaction_burnt_fee: String(21000 * 10),
    });
  });

  it("legacy transaction: no priority fee nor burnt fee without max fees", () => {
    const f = feeFields(row({ gas_price: "9", base_fee_per_gas: "7" }));
    expect(f).toMatchObject({
      fee: { value: String(21000 * 9) },
      priority_fee: null,
      transaction_burnt_fee: null,
    });
    // Pre-London block: no base fee at all.
    expect(feeFields(row({ gas_price: "9" }))).toMatchObject({ base_fee_per_gas: null, priority_fee: null });
  });

  it("zero max fee burns nothing", () => {
    expect(
      feeFields(
        row({ gas_price: "0", max_fee_per_gas: "0", max_priority_fee_per_gas: "0", base_fee_per_gas: "3" }),
      ).transaction_burnt_fee,
    ).toBe("0");
    expect(priorityFeePerGas(null, 1n, 2n)).toBeNull();
  });
});

describe("result and revert reason", () => {
  it("success, the top frame's error, or awaiting_internal_transactions", () => {
    expect(transactionResult(row({ status: 1 }))).toBe("success");
    expect(transactionResult(row({ status: 0, error: "execution reverted" }))).toBe("execution reverted");
    expect(transactionResult(row({ status: 0 }))).toBe("awaiting_internal_transactions");
  });

  it("raw revert data that is not Error(string) is shown raw", () => {
    const r = row({ status: 0, error: "execution reverted", output: Buffer.from("deadbeef", "hex") });
    expect(revertReason(r, "execution reverted")).toEqual({ raw: "0xdeadbeef" });
    expect(revertReason(r, "out of gas")).toBeNull();
  });
});
