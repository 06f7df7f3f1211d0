import { InvalidInputError } from "../../errors/base.js";
import type { StandardJsonInput } from "../../verifier/compilers/index.js";
import {
  forContracts,
  multiPartRequest,
  parseStandardJsonInput,
  singleFileInput,
} from "../../verifier/requests/index.js";
import type { SingleContractRequest } from "../../verifier/submit.js";

/** The methods of the frontend's verify form (`POST /smart-contracts/{hash}/verification/via/{method}`). */
export const FORM_METHODS = [
  "flattened-code",
  "standard-input",
  "multi-part",
  "vyper-code",
  "vyper-multi-part",
  "vyper-standard-input",
  "sourcify",
] as const;
export type FormMethod = (typeof FORM_METHODS)[number];

/** A submitted form: text fields (JSON values as the frontend sends them) and files by field (`files[0]`, ...). */
export type FormSubmission = {
  fields: Record<string, unknown>;
  files: Array<{ field: string; name: string; content: string }>;
};

export type FormRequest = SingleContractRequest;

const text = (s: FormSubmission, name: string): string | undefined => {
  const v = s.fields[name];
  if (v === undefined || v === null) return undefined;
  return typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined;
};

const required = (s: FormSubmission, name: string): string => {
  const v = text(s, name);
  if (v === undefined || v.trim() === "") throw new InvalidInputError(`Missing ${name}`, { field: name });
  return v;
};

const bool = (s: FormSubmission, name: string): boolean => {
  const v = text(s, name);
  return v === "true" || v === "1" || v === "on";
};

/** `files[0]`, `files[1]`, ... (and a bare `files`), in index order. */
function filesOf(s: FormSubmission, field: "files" | "interfaces"): Record<string, string> {
  const re = new RegExp(`^${field}(\\[(\\d+)\\])?$`);
  const picked = s.files
    .map((f) => ({ f, m: re.exec(f.field) }))
    .filter((x): x is { f: FormSubmission["files"][number]; m: RegExpExecArray } => x.m !== null)
    .sort((a, b) => Number(a.m[2] ?? 0) - Number(b.m[2] ?? 0));
  const out: Record<string, string> = {};
  for (const { f } of picked) {
    if (out[f.name] !== undefined)
      throw new InvalidInputError(`Two files are named ${f.name}`, { field: field });
    out[f.name] = f.content;
  }
  return out;
}

function requiredFiles(s: FormSubmission, field: "files" | "interfaces" = "files"): Record<string, string> {
  const files = filesOf(s, field);
  if (Object.keys(files).length === 0) throw new InvalidInputError(`Missing ${field}`, { field });
  return files;
}

/** Libraries as the form sends them: an object (JSON body) or its JSON text (multipart); `{}` when absent. */
function libraries(s: FormSubmission): Record<string, string> {
  let v = s.fields.libraries;
  if (v === undefined || v === null || v === "") return {};
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      throw new InvalidInputError("libraries must be a JSON object of name → address", {
        field: "libraries",
      });
    }
  }
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new InvalidInputError("libraries must be an object of name → address", { field: "libraries" });
  const out: Record<string, string> = {};
  for (const [name, address] of Object.entries(v)) {
    if (typeof address !== "string" || !/^(0x)?[0-9a-fA-F]{40}$/.test(address))
      throw new InvalidInputError(`Invalid address for library ${name}`, { field: "libraries" });
    out[name] = address.startsWith("0x") ? address : `0x${address}`;
  }
  return out;
}

function optimizationRuns(s: FormSubmission): number | null {
  if (!bool(s, "is_optimization_enabled")) return null;
  const raw = text(s, "optimization_runs");
  const runs = raw === undefined || raw === "" ? 200 : Number(raw);
  if (!Number.isInteger(runs) || runs < 0)
    throw new InvalidInputError("optimization_runs must be a non-negative integer", {
      field: "optimization_runs",
    });
  return runs;
}

/** The single JSON file of a standard-input submission, parsed. */
function standardJsonFile(s: FormSubmission): StandardJsonInput {
  const files = Object.entries(requiredFiles(s));
  const json = files.filter(([name]) => name.toLowerCase().endsWith(".json"));
  const [file] = json.length ? json : files;
  const parsed = parseStandardJsonInput(file![1]);
  if (!parsed.ok)
    throw new InvalidInputError(`Invalid standard JSON input: ${parsed.message}`, { field: "files" });
  return parsed.input;
}

type SolcMetadata = {
  language?: string;
  compiler?: { version?: string };
  sources?: Record<string, { content?: string }>;
  settings?: Record<string, unknown>;
} | null;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The standard JSON input of a Sourcify-style submission: a solc metadata file and the sources it names, found by
 * full path or, as a browser only gives file names, by base name; the settings are the metadata's.
 */
function metadataInput(s: FormSubmission): {
  compiler: string;
  language: "Solidity" | "Vyper";
  input: StandardJsonInput;
} {
  const files = requiredFiles(s);
  const metadata = Object.entries(files)
    .filter(([name]) => name.toLowerCase().endsWith(".json"))
    .map(([, content]) => {
      try {
        return JSON.parse(content) as SolcMetadata;
      } catch {
        return null;
      }
    })
    .find((m) => typeof m?.compiler?.version === "string" && isObject(m.sources) && isObject(m.settings));
  if (!metadata) throw new InvalidInputError("No metadata JSON file among the files", { field: "files" });
  const base = (p: string) => p.slice(p.lastIndexOf("/") + 1);
  const byBase = new Map(Object.entries(files).map(([name, content]) => [base(name), content]));
  const sources: Record<string, { content: string }> = {};
  for (const [path, src] of Object.entries(metadata.sources!)) {
    const content = src.content ?? files[path] ?? byBase.get(base(path));
    if (content === undefined) throw new InvalidInputError(`Missing source file ${path}`, { field: "files" });
    sources[path] = { content };
  }
  const { compilationTarget: _target, ...settings } = metadata.settings!;
  const language = metadata.language === "Vyper" ? "Vyper" : "Solidity";
  return { compiler: metadata.compiler!.version!, language, input: { language, sources, settings } };
}

/**
 * The verify service request of one form submission, field names and encodings as the Blockscout frontend
 * (v2.0.3, `ui/contractVerification/utils.ts`) sends them. Pure; throws InvalidInputError naming the field.
 */
export function formRequest(
  method: FormMethod,
  s: FormSubmission,
  chainId: string,
  address: string,
): FormRequest {
  const contracts: FormRequest["contracts"] = [{ chainId, address }];
  switch (method) {
    case "flattened-code": {
      const name = text(s, "contract_name")?.trim() || "contract";
      const yul = bool(s, "is_yul_contract");
      const fileName = `${name}.${yul ? "yul" : "sol"}`;
      const runs = optimizationRuns(s);
      const evm = text(s, "evm_version");
      const libs = libraries(s);
      const compiler = required(s, "compiler_version");
      const input = singleFileInput({
        fileName,
        content: required(s, "source_code"),
        language: yul ? "Yul" : "Solidity",
        optimizer: { enabled: runs !== null, runs: runs ?? 200 },
        evmVersion: evm && evm !== "default" ? evm : undefined,
        libraries: libs,
      });
      return { language: "Solidity", compiler, contracts, input };
    }
    case "standard-input": {
      const input = standardJsonFile(s);
      return { language: "Solidity", compiler: required(s, "compiler_version"), contracts, input };
    }
    case "multi-part": {
      const compiler = required(s, "compiler_version");
      const files = {
        sourceFiles: requiredFiles(s),
        evmVersion: text(s, "evm_version") ?? null,
        optimizationRuns: optimizationRuns(s),
        libraries: libraries(s),
      };
      return forContracts(multiPartRequest("Solidity", compiler, files), contracts);
    }
    case "vyper-code": {
      const name = text(s, "contract_name")?.trim() || "Vyper_contract";
      const files = {
        sourceFiles: { [`${name}.vy`]: required(s, "source_code") },
        evmVersion: text(s, "evm_version") ?? null,
      };
      return forContracts(multiPartRequest("Vyper", required(s, "compiler_version"), files), contracts);
    }
    case "vyper-multi-part": {
      const files = {
        sourceFiles: requiredFiles(s),
        interfaces: filesOf(s, "interfaces"),
        evmVersion: text(s, "evm_version") ?? null,
      };
      return forContracts(multiPartRequest("Vyper", required(s, "compiler_version"), files), contracts);
    }
    case "vyper-standard-input": {
      const input = standardJsonFile(s);
      input.language ??= "Vyper";
      return { language: "Vyper", compiler: required(s, "compiler_version"), contracts, input };
    }
    case "sourcify": {
      const m = metadataInput(s);
      return { language: m.language, compiler: m.compiler, contracts, input: m.input };
    }
  }
}
