import { describe, expect, it } from "vitest";
import { describeWithSharedFixtures, readSharedFixtures } from "../../../test/helpers/shared-fixtures.js";
import { auxdataHasMetadataHash, cborAuxdataPositionsFromDiff } from "./auxdata-positions.js";
import { decodeCborItem } from "./cbor.js";
import { hexToBytes } from "./hex.js";
import { decodeSolidityAuxdataValue, findTrailingSolidityAuxdata } from "./solidity-auxdata.js";
import type { CborAuxdataPositions } from "./types.js";
import { findTrailingVyperAuxdata, vyperAuxdataStyle } from "./vyper-auxdata.js";

const va = readSharedFixtures("verifier-alliance/solidity", "verifier-alliance/vyper");
type Va = {
  compiled_creation_code: string;
  compiled_runtime_code: string;
  deployed_creation_code: string;
  deployed_runtime_code: string;
  creation_code_artifacts: { cborAuxdata: CborAuxdataPositions };
  runtime_code_artifacts: { cborAuxdata: CborAuxdataPositions };
};
const fixture = (name: string) =>
  va[Object.keys(va).find((k) => k.endsWith(`/${name}.json`)) as string] as Va;

const IPFS_AUXDATA =
  "a26469706673582212204ac0ce5f82b26331fa3e9ae959291a55624ffaf90fcd509deafcc21a5f1da21e64736f6c63430008120033";

describe("decodeCborItem()", () => {
  it("decodes the solc map and reports where it ends", () => {
    const bytes = hexToBytes(IPFS_AUXDATA) as Uint8Array;
    const d = decodeCborItem(bytes, 0);
    expect(d?.end).toBe(bytes.length - 2);
  });
  it("rejects indefinite lengths, tags, truncation and duplicate keys", () => {
    for (const hex of ["bf", "c0", "5820aa", "a2616101616102"]) {
      expect(decodeCborItem(hexToBytes(hex) as Uint8Array, 0)).toBeNull();
    }
  });
});

describe("Solidity auxdata", () => {
  it("finds the trailing CBOR with its hash and version", () => {
    const code = hexToBytes(`6080604052${IPFS_AUXDATA}`) as Uint8Array;
    const found = findTrailingSolidityAuxdata(code);
    expect(found?.offset).toBe(5);
    expect(found?.metadata.hash?.kind).toBe("ipfs");
    expect(found?.metadata.solcVersion).toBe("0.8.18");
  });
  it("reports no hash for bytecodeHash none, and bzzr1 for old compilers", () => {
    expect(decodeSolidityAuxdataValue(hexToBytes("a164736f6c6343000812000a") as Uint8Array)).toEqual({
      solcVersion: "0.8.18",
    });
    const bzzr1 = `a265627a7a72315820${"ab".repeat(32)}64736f6c634300050c0032`;
    expect(decodeSolidityAuxdataValue(hexToBytes(bzzr1) as Uint8Array)?.hash?.kind).toBe("bzzr1");
  });
  it("rejects a trailing length that does not frame a solc map", () => {
    expect(
      findTrailingSolidityAuxdata(hexToBytes(`${IPFS_AUXDATA.slice(0, -4)}0034`) as Uint8Array),
    ).toBeNull();
    expect(findTrailingSolidityAuxdata(hexToBytes("a1616101000a") as Uint8Array)).toBeNull();
  });
});

describe("Vyper auxdata", () => {
  it("picks the style by version", () => {
    expect(
      ["0.3.1", "0.3.4", "0.3.9", "v0.3.10+commit.91361694", "0.4.0rc6", "0.4.1b1", "0.4.3"].map(
        vyperAuxdataStyle,
      ),
    ).toEqual(["none", "fixed-0.3.4", "map", "array", "array", "array-integrity", "array-integrity"]);
  });
  it("decodes the 0.4.1 array with its integrity hash and the immutables size", () => {
    const value =
      "85582005b754c58b2e540a14aba6f16717ab2c30edc74936c8985d77b152cd97887e07188f8000a1657679706572830004010034";
    const found = findTrailingVyperAuxdata(hexToBytes(`00${value}`) as Uint8Array, "array-integrity");
    expect(found?.offset).toBe(1);
    expect(found?.metadata).toMatchObject({
      vyperVersion: "0.4.1",
      runtimeSize: 0x8f,
      dataSizes: [],
      immutableSize: 0,
    });
    expect(auxdataHasMetadataHash("Vyper", "0.4.1b1", `0x${value}`)).toBe(true);
    expect(auxdataHasMetadataHash("Vyper", "0.4.0", "0x84188f8000a1657679706572830004000012")).toBe(false);
  });
  it("does not count the length suffix in 0.3.5–0.3.9 and counts it from 0.3.10", () => {
    expect(
      findTrailingVyperAuxdata(hexToBytes("00a165767970657283000308000b") as Uint8Array, "map")?.offset,
    ).toBe(1);
    expect(
      findTrailingVyperAuxdata(hexToBytes("00a165767970657283000308000b") as Uint8Array, "array"),
    ).toBeNull();
  });
});

describeWithSharedFixtures("cborAuxdataPositionsFromDiff()", () => {
  it("finds both auxdata of a factory by diffing two compilations that differ only in metadata", () => {
    const f = fixture("partial_match_double_auxdata");
    const r = cborAuxdataPositionsFromDiff(f.compiled_creation_code, f.deployed_creation_code, "Solidity");
    expect(r).toEqual({ ok: true, positions: f.creation_code_artifacts.cborAuxdata });
    const rt = cborAuxdataPositionsFromDiff(f.compiled_runtime_code, f.deployed_runtime_code, "Solidity");
    expect(rt).toEqual({ ok: true, positions: f.runtime_code_artifacts.cborAuxdata });
  });
  it("checks the values against the compiler's legacyAssembly auxdata when given", () => {
    const f = fixture("partial_match_double_auxdata");
    const values = Object.values(f.creation_code_artifacts.cborAuxdata).map((p) => p.value.slice(2, -4));
    expect(
      cborAuxdataPositionsFromDiff(f.compiled_creation_code, f.deployed_creation_code, "Solidity", values).ok,
    ).toBe(true);
    expect(
      cborAuxdataPositionsFromDiff(
        f.compiled_creation_code,
        f.deployed_creation_code,
        "Solidity",
        values.slice(1),
      ).ok,
    ).toBe(false);
  });
  it("refuses compilations that differ outside auxdata", () => {
    const f = fixture("partial_match");
    const edited = `${f.deployed_runtime_code.slice(0, 12)}ff${f.deployed_runtime_code.slice(14)}`;
    expect(cborAuxdataPositionsFromDiff(f.compiled_runtime_code, edited, "Solidity")).toEqual({
      ok: false,
      reason: "difference_outside_auxdata",
      offset: 5,
    });
  });
  it("finds nothing for identical compilations", () => {
    const f = fixture("full_match");
    expect(
      cborAuxdataPositionsFromDiff(f.compiled_runtime_code, f.deployed_runtime_code, "Solidity"),
    ).toEqual({
      ok: true,
      positions: {},
    });
  });
});
