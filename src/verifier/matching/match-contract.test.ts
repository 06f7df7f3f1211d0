import { describe, expect, it } from "vitest";
import { decodeOnchain, matchContract } from "./match-contract.js";
import type { CompiledContract, OnchainContract } from "./types.js";

// A tiny contract: creation code that returns the runtime, and a runtime that stops (no metadata).
const runtime = "0x6001600155600080fd";
const creation = `0x600a600c600039600a6000f3fe${runtime.slice(2)}`;
const compiled = (over: Partial<CompiledContract> = {}): CompiledContract => ({
  language: "Solidity",
  compilerVersion: "0.8.26+commit.8a97fa7a",
  creationCode: creation,
  runtimeCode: runtime,
  creationCborAuxdata: {},
  runtimeCborAuxdata: {},
  abi: [],
  ...over,
});

describe("matchContract() with the on-chain codes decoded once (decodeOnchain)", () => {
  const cases: Array<[string, CompiledContract, OnchainContract]> = [
    ["a full match", compiled(), { runtimeCode: runtime, creationInput: creation }],
    [
      "upper-case hex",
      compiled(),
      { runtimeCode: runtime.toUpperCase().replace("0X", "0x"), creationInput: creation },
    ],
    ["no creation input", compiled(), { runtimeCode: runtime, creationInput: null }],
    ["other code", compiled(), { runtimeCode: "0x6002600255", creationInput: "0x6002" }],
    ["on-chain code that is not hex", compiled(), { runtimeCode: "0x60zz", creationInput: "0x6g" }],
    [
      "an interface (no compiled code)",
      compiled({ creationCode: "0x", runtimeCode: "0x" }),
      { runtimeCode: runtime },
    ],
  ];
  it.each(cases)("%s: the same result as decoding per match", (_name, c, onchain) => {
    const once = decodeOnchain(onchain);
    expect(matchContract(c, once)).toEqual(matchContract(c, onchain));
    // Decoding is idempotent: an already decoded contract is returned as it is.
    expect(decodeOnchain(once)).toBe(once);
  });
  it("a match is still found (the engine is exercised, not only compared with itself)", () => {
    // Without a metadata hash the code cannot prove its sources: a partial match, on both sides.
    const r = matchContract(compiled(), decodeOnchain({ runtimeCode: runtime, creationInput: creation }));
    expect([r.matchType, r.creationMatch.type, r.runtimeMatch.type]).toEqual([
      "partial",
      "partial",
      "partial",
    ]);
  });
});
