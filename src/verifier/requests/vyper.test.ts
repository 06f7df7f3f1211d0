import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../errors/base.js";
import { interfaceFromFile, normaliseInterfaces } from "../vyper/interfaces.js";
import { selectedSources, VYPER_OUTPUTS, vyperCompilerInput } from "../vyper/output-selection.js";
import { parseVyperVersion, selectsPerFile } from "../vyper/version.js";
import { normaliseVyperStandardJson, vyperMultiPartInput } from "./vyper.js";

const ABI = [{ type: "function", name: "f", inputs: [], outputs: [], stateMutability: "view" }];
const v = parseVyperVersion;

describe("parseVyperVersion()", () => {
  it("reads releases and PEP 440 prereleases, with or without v, hyphen and commit", () => {
    expect(v("0.3.10")).toMatchObject({ major: 0, minor: 3, patch: 10, prerelease: undefined });
    expect(v("v0.4.1b1+commit.039d3692")).toMatchObject({ patch: 1, prerelease: "b1", commit: "039d3692" });
    // The same version; only how it is written (kept to name it as its list does) differs.
    const { hyphenless: _, ...written } = v("v0.4.1b1+commit.039d3692");
    expect(v("0.4.1-b1+commit.039d3692")).toEqual(written);
    expect(v("0.4.0rc6")).toMatchObject({ minor: 4, patch: 0, prerelease: "rc6" });
    expect(v("v0.4.1-rc2+commit.305813c9")).toMatchObject({ prerelease: "rc2", commit: "305813c9" });
    expect(() => v("vyper latest")).toThrow(InvalidInputError);
  });

  it("selects per file from 0.4.0 on, its prereleases included", () => {
    expect(selectsPerFile(v("0.3.10+commit.91361694"))).toBe(false);
    expect(selectsPerFile(v("0.4.0rc6"))).toBe(true);
    expect(selectsPerFile(v("0.4.3"))).toBe(true);
  });
});

describe("output selection", () => {
  const modules = {
    language: "Vyper",
    sources: {
      "contract.vy": { content: "a" },
      "lib/snek/erc20.vy": { content: "b" },
      "./lib/snek/ownable.vy": { content: "c" },
      "src/IThing.vyi": { content: "d" },
      "src/token.vy": { content: "e" },
    },
    settings: { search_paths: ["./lib/", "."], outputSelection: {} },
  };

  it("an empty selection takes every source outside the search paths that is not an interface", () => {
    expect(selectedSources(modules)).toEqual(["contract.vy", "src/token.vy"]);
    expect(selectedSources({ ...modules, settings: { outputSelection: { "*": ["*"] } } })).toEqual([
      "contract.vy",
      "lib/snek/erc20.vy",
      "./lib/snek/ownable.vy",
      "src/token.vy",
    ]);
  });

  it("a named selection is kept (names not among the sources are dropped)", () => {
    const named = {
      ...modules,
      settings: { outputSelection: { "src/token.vy": ["*"], "gone.vy": ["abi"] } },
    };
    expect(selectedSources(named)).toEqual(["src/token.vy"]);
  });

  it("0.3.x compiles everything with '*', 0.4 only the selected files; the user's outputs never count", () => {
    const old = vyperCompilerInput(
      { ...modules, settings: { evmVersion: "istanbul", outputSelection: { "*": ["evm.bytecode"] } } },
      v("0.3.7"),
    );
    expect(old.settings).toEqual({ evmVersion: "istanbul", outputSelection: { "*": [...VYPER_OUTPUTS] } });
    const now = vyperCompilerInput(modules, v("0.4.0rc6"));
    expect(now.settings).toEqual({
      search_paths: ["./lib/", "."],
      outputSelection: { "contract.vy": [...VYPER_OUTPUTS], "src/token.vy": [...VYPER_OUTPUTS] },
    });
    expect(now.sources).toBe(modules.sources);
  });
});

describe("interfaces", () => {
  it("reads ABIs in the usual shapes", () => {
    const text = (x: unknown) => JSON.stringify(x);
    expect(interfaceFromFile("I.json", text(ABI))).toEqual({ abi: ABI });
    expect(interfaceFromFile("I.json", text({ abi: ABI }))).toEqual({ abi: ABI });
    // Hardhat and Foundry artifacts, solc metadata.json.
    expect(
      interfaceFromFile(
        "I.json",
        text({ _format: "hh-sol-artifact-1", contractName: "I", abi: ABI, bytecode: "0x" }),
      ),
    ).toEqual({ abi: ABI });
    expect(
      interfaceFromFile("I.json", text({ abi: ABI, bytecode: { object: "0x" }, methodIdentifiers: {} })),
    ).toEqual({ abi: ABI });
    expect(interfaceFromFile("I.json", text({ compiler: {}, output: { abi: ABI } }))).toEqual({ abi: ABI });
    const manifest = { contractTypes: { SFRXETH: { abi: ABI } } };
    expect(interfaceFromFile("Types.json", text(manifest))).toEqual(manifest);
    expect(interfaceFromFile("I.vy", "@external\ndef f(): view")).toEqual({
      content: "@external\ndef f(): view",
    });
  });

  it("rejects JSON that is no ABI, naming the file", () => {
    expect(() => interfaceFromFile("bad.json", "{")).toThrow(/bad\.json is not valid JSON/);
    expect(() => interfaceFromFile("odd.json", '{"x":1}')).toThrow(/odd\.json holds no ABI/);
  });

  it("standard JSON: a .json interface given as content or as an artifact becomes {abi}", () => {
    expect(
      normaliseInterfaces({
        "a.json": { content: JSON.stringify(ABI) },
        "b.json": { abi: { abi: ABI } },
        "c.json": { abi: ABI },
        "d.vy": { content: "x" },
      }),
    ).toEqual({
      "a.json": { abi: ABI },
      "b.json": { abi: ABI },
      "c.json": { abi: ABI },
      "d.vy": { content: "x" },
    });
  });
});

describe("requests", () => {
  it("standard JSON: language defaults to Vyper; another language is a 400", () => {
    expect(normaliseVyperStandardJson({ sources: {} })).toEqual({ language: "Vyper", sources: {} });
    expect(() => normaliseVyperStandardJson({ language: "Solidity", sources: {} })).toThrow(
      InvalidInputError,
    );
  });

  it("multi-part: sources, interfaces (ABIs parsed) and the EVM version unless default", () => {
    expect(
      vyperMultiPartInput({
        sourceFiles: { "contracts/A.vy": "a" },
        interfaces: { "interfaces/I.json": JSON.stringify(ABI), "interfaces/R.vy": "r" },
        evmVersion: "istanbul",
      }),
    ).toEqual({
      language: "Vyper",
      sources: { "contracts/A.vy": { content: "a" } },
      interfaces: { "interfaces/I.json": { abi: ABI }, "interfaces/R.vy": { content: "r" } },
      settings: { evmVersion: "istanbul" },
    });
    expect(vyperMultiPartInput({ sourceFiles: { "A.vy": "a" }, evmVersion: "default" })).toEqual({
      language: "Vyper",
      sources: { "A.vy": { content: "a" } },
      settings: {},
    });
    expect(() => vyperMultiPartInput({ sourceFiles: {} })).toThrow(InvalidInputError);
  });
});
