import { describe, expect, it } from "vitest";
import type { FetchedBlock, RpcReceipt } from "../../../chain/types.js";
import { paysOperatorFee } from "./fetch.js";

const block = (txs: Array<{ type: string; receipt: Partial<RpcReceipt> }>) =>
  ({
    block: { transactions: txs.map((t) => ({ type: t.type })) },
    receipts: txs.map((t) => t.receipt),
    calls: null,
    extra: {},
  }) as unknown as FetchedBlock;

describe("whether an OP-stack block paid the operator fee vault (its receipts)", () => {
  it("an Isthmus receipt with a zero scalar and constant paid none; a non-zero one may have", () => {
    const zero = { l1Fee: "0x10", operatorFeeScalar: "0x0", operatorFeeConstant: "0x0" } as const;
    expect(paysOperatorFee(block([{ type: "0x2", receipt: zero }]))).toBe(false);
    expect(
      paysOperatorFee(block([{ type: "0x2", receipt: { ...zero, operatorFeeConstant: "0x3e8" } }])),
    ).toBe(true);
    expect(paysOperatorFee(block([{ type: "0x2", receipt: { ...zero, operatorFeeScalar: "0x1" } }]))).toBe(
      true,
    );
  });

  it("a receipt from before Isthmus (an L1 fee, no operator fee members) paid none", () => {
    expect(paysOperatorFee(block([{ type: "0x2", receipt: { l1Fee: "0x10" } }]))).toBe(false);
  });

  it("deposits pay none, even with the members; a receipt without OP members (anvil's) leaves it to the traces", () => {
    const isthmus = { operatorFeeScalar: "0x1", operatorFeeConstant: "0x3e8" } as const;
    expect(paysOperatorFee(block([{ type: "0x7e", receipt: isthmus }]))).toBe(false);
    expect(paysOperatorFee(block([]))).toBe(false);
    expect(
      paysOperatorFee(
        block([
          { type: "0x7e", receipt: {} },
          { type: "0x2", receipt: {} },
        ]),
      ),
    ).toBe(false);
    expect(
      paysOperatorFee(
        block([
          { type: "0x7e", receipt: {} },
          { type: "0x2", receipt: isthmus },
        ]),
      ),
    ).toBe(true);
  });
});
