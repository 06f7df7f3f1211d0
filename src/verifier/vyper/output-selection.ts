import type { CompilerVersion, StandardJsonInput } from "../compilers/index.js";
import { selectsPerFile } from "./version.js";

/** What verification needs from Vyper; the user's own selection only says which files are contracts. */
export const VYPER_OUTPUTS = [
  "abi",
  "evm.bytecode",
  "evm.deployedBytecode",
  "evm.methodIdentifiers",
] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** `./lib/` and `lib` both name the folder `lib/`; `.` and `` name the root (which selects nothing out). */
function folderPrefix(searchPath: string): string | null {
  const p = searchPath
    .replace(/\\/g, "/")
    .replace(/^(\.\/)+/, "")
    .replace(/\/+$/, "");
  return p === "" || p === "." ? null : `${p}/`;
}

/** Search paths of the settings (Vyper spells it `search_paths`; `searchPaths` is accepted too). */
export function searchPathsOf(input: StandardJsonInput): string[] {
  const s = isObject(input.settings) ? input.settings : {};
  const raw = s.search_paths ?? s.searchPaths;
  return Array.isArray(raw) ? raw.filter((p): p is string => typeof p === "string") : [];
}

/**
 * The files to compile as contracts. The user's `outputSelection` names them; an empty one (or `"*"`) means every
 * source that is not under a search path other than `.` (those are the libraries the contracts import) and is not
 * an interface file (`.vyi`, `.json`), which cannot be deployed.
 */
export function selectedSources(input: StandardJsonInput): string[] {
  const sources = Object.keys(isObject(input.sources) ? input.sources : {});
  const selection = isObject(input.settings) ? input.settings.outputSelection : undefined;
  const named = isObject(selection) ? Object.keys(selection) : [];
  if (named.length > 0 && !named.includes("*")) {
    const known = named.filter((n) => sources.includes(n));
    if (known.length > 0) return known;
  }
  const libraries = searchPathsOf(input)
    .map(folderPrefix)
    .filter((p): p is string => p !== null);
  return sources.filter(
    (s) =>
      !/\.(vyi|json)$/i.test(s) && !libraries.some((prefix) => s.replace(/^(\.\/)+/, "").startsWith(prefix)),
  );
}

/**
 * The `outputSelection` sent to the compiler: `{"*": outputs}` for 0.3.x, `{file: outputs}` for each selected file
 * from 0.4.0 on.
 */
export function vyperOutputSelection(
  input: StandardJsonInput,
  version: CompilerVersion,
): Record<string, string[]> {
  if (!selectsPerFile(version)) return { "*": [...VYPER_OUTPUTS] };
  return Object.fromEntries(selectedSources(input).map((file) => [file, [...VYPER_OUTPUTS]]));
}

/** The input exactly as the compiler gets it: the user's, with our output selection. */
export function vyperCompilerInput(input: StandardJsonInput, version: CompilerVersion): StandardJsonInput {
  const settings = isObject(input.settings) ? input.settings : {};
  return { ...input, settings: { ...settings, outputSelection: vyperOutputSelection(input, version) } };
}
