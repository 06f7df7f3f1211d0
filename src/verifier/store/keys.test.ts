import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { compilationId, compilationIds, inputHash } from "./keys.js";

const inputs = {
  compiler: "solc",
  compilerVersion: "v0.8.26+commit.8a97fa7a",
  // Key order differs from the sorted text on purpose.
  compilerSettings: { optimizer: { runs: 200, enabled: true }, evmVersion: "cancun" },
  sources: {
    "b/Token.sol": 'contract T { string s = "\\"quoted\\" ünïcode"; }',
    "a/Lib.sol": "library L {}",
  },
};

const sha = (text: string) => createHash("sha256").update(text).digest();

describe("store keys", () => {
  it("are the sha256 of the key-sorted JSON of their fields", () => {
    const settings = '{"evmVersion":"cancun","optimizer":{"enabled":true,"runs":200}}';
    const sources = `{"a/Lib.sol":"library L {}","b/Token.sol":${JSON.stringify(inputs.sources["b/Token.sol"])}}`;
    expect(inputHash(inputs)).toEqual(
      sha(`["input","solc","v0.8.26+commit.8a97fa7a",${settings},${sources}]`),
    );
    expect(
      compilationId({ ...inputs, language: "Solidity", fileName: "b/Token.sol", contractName: "T" }),
    ).toEqual(
      sha(
        `["compilation","solc","v0.8.26+commit.8a97fa7a","Solidity",${settings},${sources},"b/Token.sol","T"]`,
      ),
    );
  });

  it("compilationIds hashes the inputs once and gives compilationId for every contract", () => {
    const ids = compilationIds({ ...inputs, language: "Solidity" });
    for (const [fileName, contractName] of [
      ["b/Token.sol", "T"],
      ["a/Lib.sol", "L"],
      ['we"ird/ñame.sol', "C\\D"],
      ["", ""],
    ] as const) {
      expect(ids(fileName, contractName)).toEqual(
        compilationId({ ...inputs, language: "Solidity", fileName, contractName }),
      );
    }
    // Asked twice, the same answer (the shared prefix is copied, never consumed).
    expect(ids("b/Token.sol", "T")).toEqual(ids("b/Token.sol", "T"));
    expect(compilationIds({ ...inputs, language: "Yul" })("b/Token.sol", "T")).not.toEqual(
      ids("b/Token.sol", "T"),
    );
  });
});
