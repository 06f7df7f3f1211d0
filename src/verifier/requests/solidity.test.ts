import { describe, expect, it } from "vitest";
import { mayHoldSeveralAuxdata } from "../service/compiled.js";
import {
  editedForAuxdata,
  librariesSetting,
  OUTPUT_SELECTION,
  parseStandardJsonInput,
  solidityMultiPartAttempts,
  storedSettings,
  withOutputSelection,
} from "./solidity.js";

describe("multi-part input builder", () => {
  it("optimizer off without runs, on with runs; evmVersion omitted for default; bytecodeHash variants for >= 0.6", () => {
    const off = solidityMultiPartAttempts(
      { sourceFiles: { "A.sol": "x" }, evmVersion: "default" },
      "v0.8.26+commit.8a97fa7a",
    );
    expect(off.map((a) => a.label)).toEqual(["ipfs", "none", "bzzr1"]);
    expect(off[0]!.inputs[0]).toEqual({
      language: "Solidity",
      sources: { "A.sol": { content: "x" } },
      settings: { optimizer: { enabled: false, runs: 200 }, metadata: { bytecodeHash: "ipfs" } },
    });
    const on = solidityMultiPartAttempts(
      { sourceFiles: { "A.sol": "x" }, evmVersion: "paris", optimizationRuns: 999 },
      "0.5.17+commit.d19bba13",
    );
    expect(on).toHaveLength(1);
    expect(on[0]!.inputs[0]!.settings).toEqual({
      optimizer: { enabled: true, runs: 999 },
      evmVersion: "paris",
    });
  });

  it("compiles .yul files as Yul", () => {
    const [a] = solidityMultiPartAttempts({ sourceFiles: { "A.yul": "{}" } }, "0.8.26");
    expect(a!.inputs.map((i) => i.language)).toEqual(["Yul"]);
    const [b] = solidityMultiPartAttempts({ sourceFiles: { "A.yul": "{}", "B.sol": "x" } }, "0.8.26");
    expect(b!.inputs.map((i) => i.language)).toEqual(["Solidity", "Yul"]);
  });

  it("links libraries by file or at global level", () => {
    expect(librariesSetting({ "a.sol:L": "0x1", M: "0x2" })).toEqual({
      "a.sol": { L: "0x1" },
      "": { M: "0x2" },
    });
  });
});

describe("standard JSON helpers", () => {
  it("parses or explains", () => {
    expect(parseStandardJsonInput("{").ok).toBe(false);
    expect(parseStandardJsonInput("[]").ok).toBe(false);
    expect(parseStandardJsonInput('{"settings":{}}')).toMatchObject({ ok: false, message: /sources/ });
    expect(parseStandardJsonInput('{"sources":{}}').ok).toBe(true);
  });

  it("replaces the output selection, and stores settings without it", () => {
    const input = withOutputSelection({
      sources: {},
      settings: { optimizer: { enabled: true }, outputSelection: {} },
    });
    expect((input.settings as { outputSelection: unknown }).outputSelection).toEqual(OUTPUT_SELECTION);
    expect(storedSettings(input)).toEqual({ optimizer: { enabled: true } });
  });

  it("edits every source outside the code", () => {
    expect(editedForAuxdata({ sources: { a: { content: "x" } } }).sources).toEqual({ a: { content: "x\n" } });
  });
});

describe("mayHoldSeveralAuxdata", () => {
  const cbor = "a2646970667358221220" + "11".repeat(32) + "64736f6c634300081a0033";
  it("is true only with two metadata blobs", () => {
    expect(mayHoldSeveralAuxdata(`0x6080${cbor}`)).toBe(false);
    expect(mayHoldSeveralAuxdata(`0x6080${cbor}60${cbor}`)).toBe(true);
  });
});
