import { createHash, type Hash } from "node:crypto";
import { canonicalJsonParts } from "../compilers/compilation-cache.js";

/** sha256 of canonicalJson(value), fed piece by piece (large sources are not copied into one string first). */
function sha256(value: readonly unknown[]): Buffer {
  return hashOfParts(value).digest();
}

function hashOfParts(value: readonly unknown[], dropLast = 0): Hash {
  const parts: string[] = [];
  canonicalJsonParts(value, parts);
  const h = createHash("sha256");
  for (let i = 0; i < parts.length - dropLast; i++) h.update(parts[i]!);
  return h;
}

/** What a compilation is made of: the compiler's inputs, as the store keeps them. */
export type CompilationInputs = {
  compiler: string;
  compilerVersion: string;
  compilerSettings: Record<string, unknown>;
  sources: Record<string, string>;
};

/**
 * Key of a request's inputs (compiler, version, settings, sources), before anyone knows which contract of the output
 * matches: requests for copies of verified contracts find stored compilations by it.
 */
export function inputHash(c: CompilationInputs): Buffer {
  return sha256(["input", c.compiler, c.compilerVersion, c.compilerSettings, c.sources]);
}

/**
 * Key of one stored compilation: the inputs plus the language and the contract the verification chose (sha256 of
 * the key-sorted JSON of ["compilation", compiler, version, language, settings, sources, file, contract]).
 */
export function compilationId(
  c: CompilationInputs & { language: string; fileName: string; contractName: string },
): Buffer {
  return compilationIds(c)(c.fileName, c.contractName);
}

/**
 * compilationId for the contracts of one input's output: the inputs' part (settings and sources, the bulk) is hashed
 * once, each contract's names are appended to a copy.
 */
export function compilationIds(
  c: CompilationInputs & { language: string },
): (fileName: string, contractName: string) => Buffer {
  // The key array's text without its closing bracket; each call appends `,"file","name"]`.
  const prefix = hashOfParts(
    ["compilation", c.compiler, c.compilerVersion, c.language, c.compilerSettings, c.sources],
    1,
  );
  return (fileName, contractName) =>
    prefix
      .copy()
      .update(`,${JSON.stringify(fileName)},${JSON.stringify(contractName)}]`)
      .digest();
}
