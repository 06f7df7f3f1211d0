import { keccak256, stringToBytes } from "viem";
import type { CompilerLanguage, StandardJsonInput } from "../compilers/index.js";
import { librariesSetting } from "./solidity.js";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

type SolcMetadata = {
  language: CompilerLanguage;
  compiler: { version: string };
  settings: Record<string, unknown>;
  sources: Record<string, { keccak256?: string; content?: string }>;
};

function asMetadata(text: string): SolcMetadata | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(v) || !isObject(v.compiler) || typeof v.compiler.version !== "string") return null;
  if ((v.language !== "Solidity" && v.language !== "Vyper") || !isObject(v.sources) || !isObject(v.settings))
    return null;
  return v as unknown as SolcMetadata;
}

export type SourcifyInput =
  | { ok: true; language: CompilerLanguage; compiler: string; input: StandardJsonInput }
  | { ok: false; message: string };

/**
 * The standard JSON input a Sourcify-style submission (the compiler's metadata.json plus source files) stands
 * for, as Sourcify rebuilds it: sources found by the keccak256 the metadata names (or embedded in it), settings
 * without `compilationTarget`, libraries in standard JSON form. `chosenContract` picks one of several metadata
 * files (in file-name order). Pure.
 */
export function inputFromSourcifyFiles(
  files: Record<string, string>,
  chosenContract: number | null | undefined,
): SourcifyInput {
  const metadatas = Object.keys(files)
    .sort()
    .map((name) => asMetadata(files[name]!))
    .filter((m): m is SolcMetadata => m !== null);
  if (metadatas.length === 0)
    return { ok: false, message: 'Metadata file not found. Did you include "metadata.json"?' };
  if (metadatas.length > 1 && (chosenContract === null || chosenContract === undefined))
    return {
      ok: false,
      message: `Several metadata files (${metadatas.length}): choose one with chosenContract`,
    };
  const metadata = metadatas[chosenContract ?? 0];
  if (!metadata) return { ok: false, message: `chosenContract ${chosenContract} is out of range` };

  const byHash = new Map(Object.values(files).map((content) => [keccak256(stringToBytes(content)), content]));
  const sources: Record<string, { content: string }> = {};
  const missing: string[] = [];
  for (const [path, s] of Object.entries(metadata.sources)) {
    const content =
      typeof s.content === "string"
        ? s.content
        : s.keccak256
          ? byHash.get(s.keccak256 as `0x${string}`)
          : undefined;
    if (content === undefined) missing.push(path);
    else sources[path] = { content };
  }
  if (missing.length) return { ok: false, message: `Missing source files: ${missing.join(", ")}` };

  const { compilationTarget: _target, libraries, ...settings } = metadata.settings;
  if (isObject(libraries) && Object.keys(libraries).length > 0)
    settings.libraries = librariesSetting(libraries as Record<string, string>);
  return {
    ok: true,
    language: metadata.language,
    compiler: `v${metadata.compiler.version.replace(/^v/, "")}`,
    input: { language: metadata.language, sources, settings },
  };
}
