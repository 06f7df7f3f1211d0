/**
 * A recorded-output stand-in for the Vyper compiler (no Vyper can be installed on the test machines). Given exactly
 * a recorded input and version it returns the recorded output; anything else throws, naming what differed. It
 * lives only in the test tree; production runs the real vyper binary through CompilerRegistry.
 *
 * Recordings are built from the shared fixtures (`../shared/fixtures`): the output from the fixture's compiled code and ABI, the input
 * as the verifier must send it (the request's sources, interfaces and settings with the verifier's output
 * selection), written out here independently of src/verifier/vyper so that a wrong input fails loudly.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import {
  type CompileRequest,
  type Compiler,
  type CompilerLanguage,
  type CompilerOutput,
  type CompilerRegistry,
  type CompilerVersionInfo,
  canonicalJson,
  displayVersion,
  parseVersion,
  type StandardJsonInput,
  vyperEvmVersions,
} from "../../src/verifier/compilers/index.js";
import { guardOutput, sanitizeInput } from "../../src/verifier/compilers/sanitize.js";
import { compareVersions, resolveVersion } from "../../src/verifier/compilers/version.js";
import type { VerifierCompilers } from "../../src/verifier/service/index.js";
import { sharedFixturePaths } from "./shared-fixtures.js";

/** What Blockscout asks Vyper for (blockscout-verifier-api.md §5.2), restated here on purpose. */
const OUTPUTS = ["abi", "evm.bytecode", "evm.deployedBytecode", "evm.methodIdentifiers"];

export type Recording = {
  /** Fixture file, e.g. `vyper/auxdata-0.3.8.json`. */
  name: string;
  /** As the fixture names it. */
  version: string;
  /** Compiler inputs that produce `output` (one per way a request can state the same compilation). */
  inputs: StandardJsonInput[];
  output: CompilerOutput;
};

const canonicalVersion = (v: string) => {
  const parsed = parseVersion(v);
  if (!parsed) throw new Error(`recorded Vyper: unparsable version ${v}`);
  return displayVersion(parsed);
};

/** The stand-in. Only Vyper; only recorded version + input pairs. */
export class RecordedVyperCompiler implements Compiler {
  readonly calls: Array<{ version: string; input: StandardJsonInput; recording: string }> = [];

  constructor(readonly recordings: readonly Recording[]) {}

  /** Versions of the recordings, canonical (`v0.4.1b1+commit.039d3692`), newest first. */
  versions(): string[] {
    const all = [...new Set(this.recordings.map((r) => canonicalVersion(r.version)))];
    return all.sort((a, b) => compareVersions(parseVersion(b)!, parseVersion(a)!));
  }

  async compile(req: CompileRequest): Promise<CompilerOutput> {
    if (req.language !== "Vyper") throw new Error(`recorded Vyper: asked to compile ${req.language}`);
    // The production pre-processing runs as it would before the real binary.
    const sanitized = sanitizeInput("Vyper", req.input);
    if (!sanitized.ok) return sanitized.output;
    const version = canonicalVersion(req.version);
    const key = canonicalJson(sanitized.input);
    const sameVersion = this.recordings.filter((r) => canonicalVersion(r.version) === version);
    for (const r of sameVersion) {
      if (r.inputs.some((i) => canonicalJson(i) === key)) {
        this.calls.push({ version, input: sanitized.input, recording: r.name });
        return guardOutput(sanitized.input, structuredClone(r.output));
      }
    }
    const hint = sameVersion.length
      ? `recorded inputs for ${version}: ${sameVersion.map((r) => r.name).join(", ")}; closest differs at: ${firstDifference(key, canonicalJson(sameVersion[0]!.inputs[0]))}`
      : `no recording for version ${version} (recorded: ${this.versions().join(", ")})`;
    throw new Error(`recorded Vyper: no recording for this input. ${hint}`);
  }
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `…${a.slice(Math.max(0, i - 60), i + 60)}… vs …${b.slice(Math.max(0, i - 60), i + 60)}…`;
}

/**
 * The verify service's compilers with Vyper served by the stand-in: Solidity goes to the real registry; the Vyper
 * version check resolves against the recorded versions exactly as the registry resolves against its list.
 */
export function withRecordedVyper(
  registry: CompilerRegistry,
  vyper: RecordedVyperCompiler,
): VerifierCompilers & { listSolidity(): CompilerVersionInfo[]; listVyper(): CompilerVersionInfo[] } {
  const known = () => vyper.versions().map((v) => ({ version: parseVersion(v)! }));
  const resolveVyper = (v: string) => resolveVersion(v, known(), "Vyper").version;
  return {
    compile: (req) => (req.language === "Vyper" ? vyper.compile(req) : registry.compile(req)),
    resolveVersion: (language: CompilerLanguage, v: string) =>
      language === "Vyper" ? displayVersion(resolveVyper(v)) : registry.resolveVersion(language, v),
    evmVersions: (language: CompilerLanguage, v: string) =>
      language === "Vyper" ? vyperEvmVersions(resolveVyper(v)) : registry.evmVersions(language, v),
    listSolidity: () => registry.listSolidity(),
    listVyper: () =>
      vyper.versions().map((v) => ({ version: v, evmVersions: vyperEvmVersions(parseVersion(v)!) })),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Fixtures → recordings and the requests that verify them.

type Abi = Array<Record<string, unknown>>;

/** One fixture as the tests use it: what goes on chain, the requests, the recording, the expectations. */
export type VyperCase = {
  name: string;
  version: string;
  /** Creation transaction input (constructor arguments included); null: runtime code only (anvil_setCode). */
  creationInput: string | null;
  runtimeCode: string;
  fileName: string;
  contractName: string;
  /** The `input` of a standard-JSON request (null: the fixture is multi-part only). */
  standardJson: StandardJsonInput | null;
  /** The fields of a multi-part request (null: the fixture is standard-JSON only). */
  multiPart: {
    sourceFiles: Record<string, string>;
    interfaces?: Record<string, string>;
    evmVersion?: string;
  } | null;
  /** Compiled code as recorded. */
  compiledCreation: string;
  compiledRuntime: string;
  constructorArguments: string | null;
  isBlueprint: boolean;
  /** Verifier Alliance expectations, where the fixture has them. */
  expected?: {
    creationTransformations: unknown[] | null;
    runtimeTransformations: unknown[] | null;
    creationValues: Record<string, unknown> | null;
    runtimeValues: Record<string, unknown> | null;
  };
  recording: Recording;
};

const hex0x = (s: string) => (s.startsWith("0x") ? s : `0x${s}`).toLowerCase();
const atLeast04 = (version: string) => {
  const v = parseVersion(version)!;
  return v.major > 0 || v.minor >= 4;
};

/** The compiler input the verifier must send for a request input: ours is the only output selection. */
function expectedInput(
  request: StandardJsonInput,
  version: string,
  contractFiles: string[],
): StandardJsonInput {
  const settings = { ...((request.settings as Record<string, unknown> | undefined) ?? {}) };
  settings.outputSelection = atLeast04(version)
    ? Object.fromEntries(contractFiles.map((f) => [f, OUTPUTS]))
    : { "*": OUTPUTS };
  return { ...request, settings };
}

function output(
  version: string,
  file: string,
  contract: string,
  abi: Abi,
  creation: string,
  runtime: string,
) {
  return {
    compiler: `vyper-${version.replace(/^v/, "")}`,
    sources: { [file]: { id: 0 } },
    contracts: {
      [file]: {
        [contract]: {
          abi,
          evm: {
            bytecode: { object: hex0x(creation) },
            deployedBytecode: { object: hex0x(runtime) },
            methodIdentifiers: {},
          },
        },
      },
    },
  } satisfies CompilerOutput;
}

type VaFixture = {
  version: string;
  fully_qualified_name: string;
  sources: Record<string, string>;
  compiler_settings: { evmVersion?: string };
  compilation_artifacts: { abi: Abi };
  deployed_creation_code: string | null;
  deployed_runtime_code: string;
  compiled_creation_code: string;
  compiled_runtime_code: string;
  creation_transformations: unknown[] | null;
  runtime_transformations: unknown[] | null;
  creation_values: Record<string, unknown> | null;
  runtime_values: Record<string, unknown> | null;
};

function vaCase(file: string): VyperCase {
  const f = JSON.parse(readFileSync(file, "utf8")) as VaFixture;
  const [fileName, contractName] = f.fully_qualified_name.split(":") as [string, string];
  // The record's `libraries: {}` is a Solidity column; a Vyper request states only the EVM version.
  const settings = f.compiler_settings.evmVersion ? { evmVersion: f.compiler_settings.evmVersion } : {};
  const request: StandardJsonInput = {
    language: "Vyper",
    sources: Object.fromEntries(Object.entries(f.sources).map(([p, content]) => [p, { content }])),
    settings,
  };
  const ctor = f.creation_values?.constructorArguments as string | undefined;
  const name = `vyper/${basename(file)}`;
  return {
    name,
    version: f.version,
    creationInput: f.deployed_creation_code,
    runtimeCode: f.deployed_runtime_code,
    fileName,
    contractName,
    standardJson: request,
    multiPart: { sourceFiles: f.sources, ...settings },
    compiledCreation: f.compiled_creation_code,
    compiledRuntime: f.compiled_runtime_code,
    constructorArguments: ctor ?? null,
    isBlueprint: false,
    expected: {
      creationTransformations: f.creation_transformations,
      runtimeTransformations: f.runtime_transformations,
      creationValues: f.creation_values,
      runtimeValues: f.runtime_values,
    },
    recording: {
      name,
      version: f.version,
      inputs: [expectedInput(request, f.version, [fileName])],
      output: output(
        f.version,
        fileName,
        contractName,
        f.compilation_artifacts.abi,
        f.compiled_creation_code,
        f.compiled_runtime_code,
      ),
    },
  };
}

type VcoFixture = {
  compiler_version: string;
  creation_bytecode: string;
  deployed_bytecode: string;
  source_code?: string;
  source_files?: Record<string, string>;
  interfaces?: Record<string, string>;
  input?: StandardJsonInput;
  file_name?: string;
  contract_name?: string;
  evm_version?: string;
  expected_constructor_argument?: string | null;
  is_blueprint?: boolean;
  expected_local_creation_code?: Array<{ data: string }>;
  expected_local_runtime_code?: Array<{ data: string }>;
  expected_compiler_artifacts?: { abi?: Abi };
};

/**
 * The Arbitrage fixtures carry no recorded ABI; their source declares
 * `__init__(_llamma: address, _router: address, _crvusd: address)`, which the recording needs to decode the
 * constructor arguments. Other fixtures without an ABI take no constructor arguments.
 */
const ARBITRAGE_ABI: Abi = [
  {
    type: "constructor",
    stateMutability: "nonpayable",
    inputs: [
      { name: "_llamma", type: "address" },
      { name: "_router", type: "address" },
      { name: "_crvusd", type: "address" },
    ],
    outputs: [],
  },
];

function vcoCase(file: string): VyperCase {
  const f = JSON.parse(readFileSync(file, "utf8")) as VcoFixture;
  const stem = basename(file, ".json");
  const name = `vyper-compiler-outputs/${basename(file)}`;
  const version = f.compiler_version;
  const args = f.expected_constructor_argument ? f.expected_constructor_argument.toLowerCase() : null;
  let compiledCreation: string;
  let compiledRuntime: string;
  if (f.is_blueprint) {
    compiledCreation = f.expected_local_creation_code![0]!.data;
    compiledRuntime = f.expected_local_runtime_code![0]!.data;
  } else {
    const creation = hex0x(f.creation_bytecode);
    if (args && !creation.endsWith(args)) throw new Error(`${name}: constructor arguments not at the end`);
    compiledCreation = args ? creation.slice(0, creation.length - args.length) : creation;
    compiledRuntime = f.deployed_bytecode;
  }
  const abi = f.expected_compiler_artifacts?.abi ?? (stem.includes("with_interfaces") ? ARBITRAGE_ABI : []);

  let fileName: string;
  let standardJson: StandardJsonInput | null;
  let multiPart: VyperCase["multiPart"];
  const inputs: StandardJsonInput[] = [];
  if (f.input) {
    // Standard JSON as recorded: the user's selection names the contract files.
    fileName = f.file_name!;
    standardJson = f.input;
    multiPart = null;
    inputs.push(expectedInput(f.input, version, [fileName]));
  } else if (f.source_files) {
    fileName = f.file_name!;
    multiPart = {
      sourceFiles: f.source_files,
      ...(f.interfaces ? { interfaces: f.interfaces } : {}),
      ...(f.evm_version ? { evmVersion: f.evm_version } : {}),
    };
    // The same compilation stated as standard JSON: interfaces as Vyper reads them.
    const interfaces = Object.fromEntries(
      Object.entries(f.interfaces ?? {}).map(([p, text]) => [
        p,
        p.endsWith(".json") ? jsonInterfaceAsVyperReadsIt(JSON.parse(text)) : { content: text },
      ]),
    );
    standardJson = {
      language: "Vyper",
      sources: Object.fromEntries(Object.entries(f.source_files).map(([p, content]) => [p, { content }])),
      interfaces,
      settings: f.evm_version ? { evmVersion: f.evm_version } : {},
    };
    inputs.push(expectedInput(standardJson, version, [fileName]));
  } else {
    // A single source without a name: the tests call it `<fixture>.vy`.
    fileName = `${stem}.vy`;
    multiPart = { sourceFiles: { [fileName]: f.source_code! } };
    standardJson = { language: "Vyper", sources: { [fileName]: { content: f.source_code! } }, settings: {} };
    inputs.push(expectedInput(standardJson, version, [fileName]));
  }
  const contractName = f.contract_name ?? basename(fileName, ".vy");
  return {
    name,
    version,
    creationInput: f.creation_bytecode,
    runtimeCode: f.deployed_bytecode,
    fileName,
    contractName,
    standardJson,
    multiPart,
    compiledCreation,
    compiledRuntime,
    constructorArguments: args ? `0x${args}` : null,
    isBlueprint: f.is_blueprint === true,
    recording: {
      name,
      version,
      inputs,
      output: output(version, fileName, contractName, abi, compiledCreation, compiledRuntime),
    },
  };
}

/** A bare ABI array becomes `{abi}`; ethPM manifests stay as they are (Vyper reads `contractTypes`). */
function jsonInterfaceAsVyperReadsIt(json: unknown): unknown {
  return Array.isArray(json) ? { abi: json } : json;
}

/**
 * Every Vyper fixture: verifier-alliance/vyper/*.json and vyper-compiler-outputs/*.json, sorted by name; none when
 * the shared fixtures are absent (the tests using them are then skipped, see shared-fixtures.ts).
 */
export function vyperCases(): VyperCase[] {
  return [
    ...sharedFixturePaths("verifier-alliance/vyper").map(vaCase),
    ...sharedFixturePaths("vyper-compiler-outputs").map(vcoCase),
  ];
}
