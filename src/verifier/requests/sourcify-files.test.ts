import { keccak256, stringToBytes } from "viem";
import { describe, expect, it } from "vitest";
import { inputFromSourcifyFiles } from "./sourcify-files.js";

const A = "contract A {}\n";
const metadata = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    language: "Solidity",
    compiler: { version: "0.8.26+commit.8a97fa7a" },
    settings: {
      compilationTarget: { "src/A.sol": "A" },
      optimizer: { enabled: true, runs: 200 },
      libraries: { "src/L.sol:L": "0x00000000000000000000000000000000000000aa" },
      ...extra,
    },
    sources: { "src/A.sol": { keccak256: keccak256(stringToBytes(A)) } },
  });

describe("inputFromSourcifyFiles", () => {
  it("finds sources by keccak256 whatever their file name; settings as standard JSON", () => {
    const r = inputFromSourcifyFiles({ "metadata.json": metadata(), "A.sol": A }, undefined);
    expect(r).toEqual({
      ok: true,
      language: "Solidity",
      compiler: "v0.8.26+commit.8a97fa7a",
      input: {
        language: "Solidity",
        sources: { "src/A.sol": { content: A } },
        settings: {
          optimizer: { enabled: true, runs: 200 },
          libraries: { "src/L.sol": { L: "0x00000000000000000000000000000000000000aa" } },
        },
      },
    });
  });
  it("names what is missing, and asks to choose among several metadata files", () => {
    expect(inputFromSourcifyFiles({ "metadata.json": metadata() }, null)).toEqual({
      ok: false,
      message: "Missing source files: src/A.sol",
    });
    expect(inputFromSourcifyFiles({ "A.sol": A }, null)).toMatchObject({ ok: false });
    const two = { "a.json": metadata(), "b.json": metadata({ evmVersion: "paris" }), "A.sol": A };
    expect(inputFromSourcifyFiles(two, null)).toMatchObject({ ok: false, message: /chosenContract/ });
    expect(inputFromSourcifyFiles(two, 1)).toMatchObject({
      ok: true,
      input: { settings: { evmVersion: "paris" } },
    });
    expect(inputFromSourcifyFiles(two, 2)).toMatchObject({ ok: false, message: /out of range/ });
  });
});
