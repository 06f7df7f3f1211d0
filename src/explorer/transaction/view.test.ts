import { encodeErrorResult, type Hex, parseAbi } from "viem";
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
    expect(revertReason(r, "execution reverted", { single: true })).toEqual({ raw: "0xdeadbeef" });
    expect(revertReason(r, "out of gas", { single: true })).toBeNull();
  });

  const reverted = (data: Hex) =>
    row({ status: 0, error: "execution reverted", output: Buffer.from(data.slice(2), "hex") });

  it("decodes Error and Panic with Blockscout's default error ABI, method_id without 0x (details page)", () => {
    const error = encodeErrorResult({
      abi: parseAbi(["error Error(string)"]),
      errorName: "Error",
      args: ["bad input"],
    });
    expect(revertReason(reverted(error), "execution reverted", { single: true })).toEqual({
      method_id: "08c379a0",
      method_call: "Error(string reason)",
      parameters: [{ name: "reason", type: "string", value: "bad input" }],
    });
    const panic = encodeErrorResult({
      abi: parseAbi(["error Panic(uint256)"]),
      errorName: "Panic",
      args: [0x12n],
    });
    expect(revertReason(reverted(panic), "execution reverted", { single: true })).toEqual({
      method_id: "4e487b71",
      method_call: "Panic(uint256 errorCode)",
      parameters: [{ name: "errorCode", type: "uint256", value: "18" }],
    });
    // Lists carry the data raw, as Blockscout's.
    expect(revertReason(reverted(panic), "execution reverted")).toEqual({ raw: panic });
  });

  it("decodes a custom error with the callee's verified ABI, else shows it raw", () => {
    const abi = parseAbi(["error Nope(uint256 code, string why)", "function f()"]);
    const data = encodeErrorResult({ abi, errorName: "Nope", args: [7n, "no"] });
    expect(revertReason(reverted(data), "execution reverted", { single: true, abi })).toEqual({
      method_id: data.slice(2, 10),
      method_call: "Nope(uint256 code, string why)",
      parameters: [
        { name: "code", type: "uint256", value: "7" },
        { name: "why", type: "string", value: "no" },
      ],
    });
    expect(revertReason(reverted(data), "execution reverted", { single: true })).toEqual({ raw: data });
    const other = parseAbi(["error Other(uint256)"]);
    expect(revertReason(reverted(data), "execution reverted", { single: true, abi: other })).toEqual({
      raw: data,
    });
  });
});
