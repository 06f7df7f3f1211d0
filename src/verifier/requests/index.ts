import type { CompilerLanguage } from "../compilers/index.js";
import type { VerifyRequest } from "../service/types.js";
import { type ParsedStandardJson, solidityMultiPartAttempts } from "./solidity.js";
import { normaliseVyperStandardJson, vyperMultiPartInput } from "./vyper.js";

/**
 * The request builders every front door calls: a body's sources and settings as the verify service's request,
 * for {Solidity, Vyper} × {standard JSON, multi-part}, one flattened file, and Sourcify-style metadata files.
 */

export { shownCompilerSettings } from "./shown-settings.js";
export { type SingleFile, singleFileInput } from "./single-file.js";
export { librariesSetting, type ParsedStandardJson, parseStandardJsonInput } from "./solidity.js";
export { inputFromSourcifyFiles, type SourcifyInput } from "./sourcify-files.js";

/** A verify request without its contracts (the front door names those). */
export type RequestBody = Omit<VerifyRequest, "contracts">;

/**
 * A standard JSON input sent as text: a bad one is the user's compilation failure (`inputProblem`), not a 400; a
 * Vyper one is checked for its language and has its interfaces normalised.
 */
export function standardJsonRequest(
  language: CompilerLanguage,
  compiler: string,
  parsed: ParsedStandardJson,
): RequestBody {
  if (!parsed.ok) return { language, compiler, inputProblem: parsed.message };
  return {
    language,
    compiler,
    input: language === "Vyper" ? normaliseVyperStandardJson(parsed.input) : parsed.input,
  };
}

export type MultiPartFiles = {
  sourceFiles: Record<string, string>;
  /** Omitted, null or "default": the compiler's default. */
  evmVersion?: string | null;
  /** Solidity: absent or null is the optimizer off; a number turns it on with these runs. */
  optimizationRuns?: number | null;
  /** Solidity: `Name` or `file.sol:Name` → address, linked by the compiler. */
  libraries?: Record<string, string>;
  /** Vyper: path → interface source, or an ABI when the path ends in `.json`. */
  interfaces?: Record<string, string> | null;
};

/**
 * Source files with separate settings: Solidity as compilation attempts (one per metadata hash, Yul apart), Vyper
 * as one standard JSON input.
 */
export function multiPartRequest(
  language: CompilerLanguage,
  compiler: string,
  f: MultiPartFiles,
): RequestBody {
  if (language === "Vyper")
    return {
      language,
      compiler,
      input: vyperMultiPartInput({
        sourceFiles: f.sourceFiles,
        interfaces: f.interfaces ?? null,
        evmVersion: f.evmVersion ?? null,
      }),
    };
  return {
    language,
    compiler,
    attempts: solidityMultiPartAttempts(
      {
        sourceFiles: f.sourceFiles,
        evmVersion: f.evmVersion ?? null,
        optimizationRuns: f.optimizationRuns ?? null,
        ...(f.libraries ? { libraries: f.libraries } : {}),
      },
      compiler,
    ),
  };
}

/** The full request: the contracts after the compiler, as every front door has always ordered its members. */
export function forContracts<C extends VerifyRequest["contracts"]>(
  body: RequestBody,
  contracts: C,
): RequestBody & { contracts: C } {
  const { language, compiler, ...rest } = body;
  return { language, compiler, contracts, ...rest };
}
