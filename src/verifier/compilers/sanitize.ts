import type { CompilerLanguage, CompilerOutput, StandardJsonError, StandardJsonInput } from "./types.js";

export type SanitizeResult = { ok: true; input: StandardJsonInput } | { ok: false; output: CompilerOutput };

export function errorOutput(message: string, type = "JSONError"): CompilerOutput {
  const error: StandardJsonError = {
    component: "general",
    severity: "error",
    type,
    message,
    formattedMessage: `${type}: ${message}`,
  };
  return { errors: [error] };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Vyper search paths are read from disk: only plain relative paths inside the (empty) working directory. */
function badSearchPath(p: unknown): boolean {
  if (typeof p !== "string") return true;
  if (p.startsWith("/") || p.startsWith("\\") || /^[a-zA-Z]:/.test(p) || p.includes("\0")) return true;
  return p.split(/[\\/]/).includes("..");
}

/**
 * Makes the input safe to hand to a compiler: every source must carry its `content` (no `urls`, which make
 * compilers read files or URLs), and nothing may widen what the compiler reads from disk. Problems come back as
 * a standard JSON output with errors, the same shape as any other compilation error.
 */
export function sanitizeInput(language: CompilerLanguage, raw: unknown): SanitizeResult {
  if (!isObject(raw)) return { ok: false, output: errorOutput("The standard JSON input must be an object") };
  const input: StandardJsonInput = structuredClone(raw);
  const allowed = language === "Solidity" ? ["Solidity", "Yul"] : ["Vyper"];
  input.language ??= language;
  if (typeof input.language !== "string" || !allowed.includes(input.language)) {
    return { ok: false, output: errorOutput(`"language" must be ${allowed.join(" or ")}`) };
  }
  const groups: Array<[string, unknown]> = [["sources", input.sources]];
  if (language === "Vyper" && input.interfaces !== undefined) groups.push(["interfaces", input.interfaces]);
  if (!isObject(input.sources) || Object.keys(input.sources).length === 0) {
    return { ok: false, output: errorOutput("No input sources specified") };
  }
  for (const [group, entries] of groups) {
    if (!isObject(entries)) return { ok: false, output: errorOutput(`"${group}" must be an object`) };
    for (const [name, src] of Object.entries(entries)) {
      if (!isObject(src)) return { ok: false, output: errorOutput(`${group}["${name}"] must be an object`) };
      if (src.urls !== undefined) {
        return {
          ok: false,
          output: errorOutput(
            `${group}["${name}"].urls is not supported: give the file's text in "content"`,
            "IOError",
          ),
        };
      }
      // Vyper interfaces may be given as an ABI, or an ethPM manifest's contractTypes, instead of source text.
      const hasAbi = group === "interfaces" && (src.abi !== undefined || src.contractTypes !== undefined);
      if (typeof src.content !== "string" && !hasAbi) {
        return { ok: false, output: errorOutput(`${group}["${name}"] has no "content"`, "IOError") };
      }
    }
  }
  const settings = input.settings;
  if (settings !== undefined && !isObject(settings)) {
    return { ok: false, output: errorOutput('"settings" must be an object') };
  }
  if (language === "Vyper" && settings) {
    const paths = settings.search_paths ?? settings.searchPaths;
    if (paths !== undefined && (!Array.isArray(paths) || paths.some(badSearchPath))) {
      return {
        ok: false,
        output: errorOutput("settings.search_paths may only name relative paths inside the input", "IOError"),
      };
    }
  }
  return { ok: true, input };
}

/**
 * Defence in depth after a native run: if the compiler read any source that was not in the input, nothing of
 * its output is returned (it could quote the file), only a compilation error.
 */
export function guardOutput(input: StandardJsonInput, output: CompilerOutput): CompilerOutput {
  const known = new Set<string>([
    ...Object.keys((input.sources as object) ?? {}),
    ...Object.keys((input.interfaces as object | undefined) ?? {}),
  ]);
  const foreign = new Set<string>();
  for (const name of Object.keys(output.sources ?? {})) if (!known.has(name)) foreign.add(name);
  for (const name of Object.keys(output.contracts ?? {})) if (!known.has(name)) foreign.add(name);
  for (const e of output.errors ?? []) {
    const file = e.sourceLocation?.file;
    if (file !== undefined && file !== "" && !known.has(file)) foreign.add(file);
  }
  if (foreign.size === 0) return output;
  return errorOutput(
    `Source ${[...foreign].map((f) => JSON.stringify(f)).join(", ")} not found: only sources given in the input can be imported`,
    "IOError",
  );
}
