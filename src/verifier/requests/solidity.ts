import { InvalidInputError } from "../../errors/base.js";
import type { StandardJsonInput } from "../compilers/index.js";
import { versionAtLeast } from "../matching/compiler-version.js";

/**
 * One compilation attempt: the inputs compiled together (Solidity and Yul files of a multi-part request compile
 * separately); every contract of their outputs is a candidate.
 */
export type CompileAttempt = { inputs: StandardJsonInput[]; label?: string };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** What we ask the compiler for: code, link and immutable references, ABI. Older solc ignores unknown keys. */
export const OUTPUT_SELECTION = {
  "*": {
    "*": [
      "abi",
      "evm.bytecode.object",
      "evm.bytecode.linkReferences",
      "evm.deployedBytecode.object",
      "evm.deployedBytecode.linkReferences",
      "evm.deployedBytecode.immutableReferences",
    ],
  },
};

/** The input with our output selection (the user's selection decides nothing about verification). */
export function withOutputSelection(input: StandardJsonInput): StandardJsonInput {
  const settings = isObject(input.settings) ? input.settings : {};
  return { ...input, settings: { ...settings, outputSelection: OUTPUT_SELECTION } };
}

export type ParsedStandardJson = { ok: true; input: StandardJsonInput } | { ok: false; message: string };

/** Parses the `input` string of a standard-JSON request; a bad one is the user's compilation failure, not a 400. */
export function parseStandardJsonInput(text: string): ParsedStandardJson {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `content is not a valid standard json: ${(e as Error).message}` };
  }
  if (!isObject(v)) return { ok: false, message: "content is not a valid standard json: expected an object" };
  if (!isObject(v.sources))
    return { ok: false, message: "content is not a valid standard json: missing field `sources`" };
  if (v.settings !== undefined && !isObject(v.settings))
    return { ok: false, message: "content is not a valid standard json: `settings` must be an object" };
  return { ok: true, input: v };
}

export type SolidityMultiPart = {
  sourceFiles: Record<string, string>;
  /** Omitted, null or "default": the compiler's default. */
  evmVersion?: string | null;
  /** Absent: optimizer off. Present: on, with these runs. */
  optimizationRuns?: number | null;
  /** `Name` or `file.sol:Name` → address; linked by the compiler. */
  libraries?: Record<string, string>;
};

/** Standard JSON `settings.libraries` from `{name|file:name: address}`; a bare name links at global level (""). */
export function librariesSetting(libraries: Record<string, string>): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [key, address] of Object.entries(libraries)) {
    const at = key.lastIndexOf(":");
    const file = at >= 0 ? key.slice(0, at) : "";
    const name = at >= 0 ? key.slice(at + 1) : key;
    out[file] = { ...out[file], [name]: address };
  }
  return out;
}

/** Metadata hash variants tried for multi-part sources, in order (solc ≥ 0.6.0 has the setting). */
const BYTECODE_HASHES = ["ipfs", "none", "bzzr1"] as const;

/**
 * Compilation attempts for a Solidity multi-part request: `.yul` files compile as Yul, the rest as Solidity;
 * for solc ≥ 0.6.0 one attempt per metadata hash (ipfs, none, bzzr1), the first that verifies a contract wins.
 */
export function solidityMultiPartAttempts(req: SolidityMultiPart, compilerVersion: string): CompileAttempt[] {
  const files = Object.entries(req.sourceFiles);
  if (files.length === 0) throw new InvalidInputError("sourceFiles must name at least one file");
  const settings: Record<string, unknown> = {
    optimizer:
      req.optimizationRuns == null
        ? { enabled: false, runs: 200 }
        : { enabled: true, runs: req.optimizationRuns },
  };
  if (req.evmVersion && req.evmVersion !== "default") settings.evmVersion = req.evmVersion;
  if (req.libraries && Object.keys(req.libraries).length > 0)
    settings.libraries = librariesSetting(req.libraries);
  const sol = files.filter(([p]) => !p.endsWith(".yul"));
  const yul = files.filter(([p]) => p.endsWith(".yul"));
  const sources = (list: Array<[string, string]>) =>
    Object.fromEntries(list.map(([p, content]) => [p, { content }]));
  const yulInput: StandardJsonInput[] = yul.length
    ? [{ language: "Yul", sources: sources(yul), settings: { ...settings, libraries: undefined } }]
    : [];
  if (sol.length === 0) return [{ inputs: yulInput, label: "yul" }];
  const base = { language: "Solidity", sources: sources(sol) };
  if (!versionAtLeast(compilerVersion, "0.6.0")) return [{ inputs: [{ ...base, settings }, ...yulInput] }];
  return BYTECODE_HASHES.map((bytecodeHash) => ({
    label: bytecodeHash,
    inputs: [{ ...base, settings: { ...settings, metadata: { bytecodeHash } } }, ...yulInput],
  }));
}

/** The settings as stored with a verified contract: what the user gave, minus our output selection. */
export function storedSettings(input: StandardJsonInput): Record<string, unknown> {
  const { outputSelection: _drop, ...rest } = isObject(input.settings) ? input.settings : {};
  return JSON.parse(JSON.stringify(rest)) as Record<string, unknown>;
}

/**
 * path → content of the input's sources (sources given by URL have no content and are left out), and of Vyper's
 * `interfaces` (an interface given as an ABI is kept as its JSON text).
 */
export function sourceTexts(input: StandardJsonInput): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [p, s] of Object.entries(isObject(input.interfaces) ? input.interfaces : {})) {
    if (isObject(s)) out[p] = typeof s.content === "string" ? s.content : JSON.stringify(s);
  }
  for (const [p, s] of Object.entries(isObject(input.sources) ? input.sources : {})) {
    if (isObject(s) && typeof s.content === "string") out[p] = s.content;
  }
  return out;
}

/**
 * The same input with every source edited outside the code (a trailing newline): only metadata hashes change,
 * so diffing the two outputs shows exactly where the auxdata sits.
 */
export function editedForAuxdata(input: StandardJsonInput): StandardJsonInput {
  const sources: Record<string, unknown> = {};
  for (const [p, s] of Object.entries(isObject(input.sources) ? input.sources : {})) {
    sources[p] = isObject(s) && typeof s.content === "string" ? { ...s, content: `${s.content}\n` } : s;
  }
  return { ...input, sources };
}
