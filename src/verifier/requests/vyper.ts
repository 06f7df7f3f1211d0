import { InvalidInputError } from "../../errors/base.js";
import type { StandardJsonInput } from "../compilers/index.js";
import { interfaceFromFile, normaliseInterfaces } from "../vyper/interfaces.js";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A parsed Vyper standard JSON input, checked for the language (absent means Vyper) and with its interfaces'
 * ABIs in shapes Vyper reads. Any other language is a mixed request: a 400, not a compilation failure.
 */
export function normaliseVyperStandardJson(input: StandardJsonInput): StandardJsonInput {
  const language = input.language ?? "Vyper";
  if (language !== "Vyper") {
    throw new InvalidInputError(
      `The standard JSON input is ${JSON.stringify(language)}, not Vyper: use /api/v1/solidity/sources:verify-standard-json`,
      { field: "input.language" },
    );
  }
  const out: StandardJsonInput = { ...input, language: "Vyper" };
  if (isObject(input.interfaces)) out.interfaces = normaliseInterfaces(input.interfaces);
  return out;
}

export type VyperMultiPart = {
  /** path → Vyper source (`.vy`, and `.vyi` interfaces of 0.4). */
  sourceFiles: Record<string, string>;
  /** path → Vyper interface source, or an ABI when the path ends in `.json`. */
  interfaces?: Record<string, string> | null;
  /** Omitted, null or "default": the compiler's default. */
  evmVersion?: string | null;
};

/** The standard JSON input of a multi-part request (Vyper's settings are the EVM version only). */
export function vyperMultiPartInput(req: VyperMultiPart): StandardJsonInput {
  const files = Object.entries(req.sourceFiles);
  if (files.length === 0) throw new InvalidInputError("sourceFiles must name at least one file");
  const input: StandardJsonInput = {
    language: "Vyper",
    sources: Object.fromEntries(files.map(([path, content]) => [path, { content }])),
  };
  const interfaces = Object.entries(req.interfaces ?? {});
  if (interfaces.length > 0) {
    input.interfaces = Object.fromEntries(
      interfaces.map(([path, text]) => [path, interfaceFromFile(path, text)]),
    );
  }
  input.settings = req.evmVersion && req.evmVersion !== "default" ? { evmVersion: req.evmVersion } : {};
  return input;
}
