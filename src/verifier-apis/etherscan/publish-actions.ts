import { InvalidInputError } from "../../errors/base.js";
import type { Params } from "../../http/etherscan-params.js";
import { ADDRESS_RE } from "../../verifier/api.js";
import type { VerifierChain } from "../../verifier/chain-clients.js";
import { inputFromSourcifyFiles, multiPartRequest, singleFileInput } from "../../verifier/requests/index.js";
import {
  chainFor,
  type SingleContractRequest,
  settledJob,
  submitVerification,
} from "../../verifier/submit.js";
import { type EtherscanApi, verifiedSourceItem } from "./actions.js";
import { constructorArgumentsParam } from "./parse.js";
import { type Envelope, failureReason, ok, type SourceCodeItem } from "./view.js";

/**
 * Blockscout's synchronous publish actions of `module=contract` (its RPC ContractController): `verify` (one
 * flattened Solidity file), `verify_vyper_contract` (one Vyper file) and `verify_via_sourcify` (metadata and source
 * files), and its `POST /api/v1/verified_smart_contracts`. Blockscout compiles within the request and answers the
 * verified contract; here the request goes through the one submission path (a queued job, as `verifysourcecode`)
 * and the answer waits for the job, so a crash or a second process loses nothing.
 */

export const PUBLISH_TEXT = {
  alreadyVerified: "Smart-contract already verified.",
  invalidAddress: "Invalid address hash",
  notContract: "Address is not a smart-contract",
  failed: "Something went wrong while publishing the contract",
  required: (key: string) => `${key} is required.`,
} as const;

/** Blockscout's RPCView error.json: the text as `message`, `result` null unless it names one. */
const error = (message: string, result: string | null = null): Envelope => ({ status: "0", message, result });

type Outcome =
  | { status: "verified"; item: SourceCodeItem }
  | { status: "no-code" }
  | { status: "already-verified" }
  | { status: "failed"; reason: string }
  /** Still running after the wait: its GUID, for checkverifystatus. */
  | { status: "pending"; guid: string };

/** How long a synchronous publish waits for its job before answering with the job's GUID (default 120 s). */
const DEFAULT_WAIT_MS = 120_000;

/** Submits through the verifier's one path (limits, compiler version, code at the address, already verified) and waits. */
async function publish(
  api: EtherscanApi,
  chain: VerifierChain,
  request: SingleContractRequest,
): Promise<Outcome> {
  const { address } = request.contracts[0];
  const r = await submitVerification(api, request, { checkCompiler: true, code: "required" });
  if (r.status === "no-code") return { status: "no-code" };
  if (r.status === "already-verified") return { status: "already-verified" };
  const job = await settledJob(api.jobs, r.job.id, api.publishWaitMs ?? DEFAULT_WAIT_MS);
  if (!job?.outcome) return { status: "pending", guid: r.job.id };
  if (job.outcome.result === "failed") return { status: "failed", reason: failureReason(job.outcome) };
  const item = await verifiedSourceItem(api, chain, address);
  return item
    ? { status: "verified", item }
    : { status: "failed", reason: "the verified contract was not stored" };
}

/** The outcome as Blockscout's `verify.json` (the contract's getsourcecode item, not a list) or its error.json. */
function envelope(o: Outcome): Envelope {
  switch (o.status) {
    case "verified":
      return ok(o.item);
    case "no-code":
      return error(PUBLISH_TEXT.notContract, PUBLISH_TEXT.notContract);
    case "already-verified":
      return error(PUBLISH_TEXT.alreadyVerified);
    case "failed":
      return error(`${PUBLISH_TEXT.failed}: ${o.reason}`);
    case "pending":
      return error(
        `Verification is still running; check it with action=checkverifystatus&guid=${o.guid}`,
        o.guid,
      );
  }
}

/** The fields of one flattened Solidity file, as `verify` and `/api/v1/verified_smart_contracts` name them. */
type FlattenedNames = {
  address: string;
  name: string;
  compiler: string;
  optimization: string;
  source: string;
  runs: string;
  evmVersion: string;
  library: (i: number) => [string, string];
};

const VERIFY_NAMES: FlattenedNames = {
  address: "addressHash",
  name: "name",
  compiler: "compilerVersion",
  optimization: "optimization",
  source: "contractSourceCode",
  runs: "optimizationRuns",
  evmVersion: "evmVersion",
  library: (i) => [`library${i}Name`, `library${i}Address`],
};

const V1_NAMES: FlattenedNames = {
  address: "address_hash",
  name: "name",
  compiler: "compiler_version",
  optimization: "optimization",
  source: "contract_source_code",
  runs: "optimization_runs",
  evmVersion: "evm_version",
  library: (i) => [`library${i}_name`, `library${i}_address`],
};

/** The first required field that is absent, or null (Blockscout checks them in this order). */
function missing(p: Params, keys: readonly string[]): string | null {
  return (
    keys.find(
      (k) => (k === "contractSourceCode" || k === "contract_source_code" ? p.raw(k) : p.get(k)) === undefined,
    ) ?? null
  );
}

/** Library links `Name` → address from the numbered pairs (Blockscout reads up to its `verification_max_libraries`). */
function libraries(p: Params, names: FlattenedNames): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 1; i <= 20; i++) {
    const [n, a] = names.library(i);
    const name = p.get(n);
    const address = p.get(a);
    if (!name) continue;
    if (!address || !ADDRESS_RE.test(address))
      throw new InvalidInputError(`Invalid ${a} "${address ?? ""}" for library ${name}`, { field: a });
    out[name] = address.toLowerCase();
  }
  return out;
}

/** One flattened Solidity file (`${name}.sol`, as Blockscout names it) as a request for one contract. */
function flattenedRequest(
  p: Params,
  names: FlattenedNames,
  chainId: string,
  address: string,
): SingleContractRequest {
  const name = p.get(names.name)!;
  const on = (p.get(names.optimization) ?? "").toLowerCase();
  // Blockscout parses the runs leniently: anything but an integer is its default 200.
  const runs = Number.parseInt(p.get(names.runs) ?? "", 10);
  const evm = p.get(names.evmVersion);
  return {
    language: "Solidity",
    compiler: p.get(names.compiler)!,
    contracts: [{ chainId, address }],
    input: singleFileInput({
      fileName: `${name}.sol`,
      content: p.raw(names.source)!,
      optimizer: {
        enabled: on === "true" || on === "1",
        runs: Number.isInteger(runs) && runs >= 0 ? runs : 200,
      },
      evmVersion: evm && evm.toLowerCase() !== "default" ? evm : undefined,
      libraries: libraries(p, names),
    }),
  };
}

/** The action's request, or Blockscout's error for its fields; InvalidInputError from the builders is a field error. */
async function run(
  api: EtherscanApi,
  p: Params,
  required: readonly string[],
  build: (chain: VerifierChain, address: string) => SingleContractRequest,
): Promise<Envelope> {
  const absent = missing(p, required);
  if (absent) return error(PUBLISH_TEXT.required(absent));
  const raw = p.get(required[0]!)!;
  if (!ADDRESS_RE.test(raw)) return error(PUBLISH_TEXT.invalidAddress);
  try {
    const chain = chainFor(api.chains, p.get("chainid"));
    constructorArgumentsParam(p);
    return envelope(await publish(api, chain, build(chain, raw.toLowerCase())));
  } catch (e) {
    if (e instanceof InvalidInputError) return error(e.message);
    throw e;
  }
}

/** `verify`: one flattened Solidity file with its settings (Blockscout's fields, camelCase). */
export function verify(api: EtherscanApi, p: Params): Promise<Envelope> {
  const n = VERIFY_NAMES;
  return run(api, p, [n.address, n.name, n.compiler, n.optimization, n.source], (chain, address) =>
    flattenedRequest(p, n, chain.config.id, address),
  );
}

/** `verify_vyper_contract`: one Vyper file (`${name}.vy`, as Blockscout names it), the compiler's default EVM version. */
export function verifyVyperContract(api: EtherscanApi, p: Params): Promise<Envelope> {
  return run(api, p, ["addressHash", "name", "compilerVersion", "contractSourceCode"], (chain, address) => ({
    contracts: [{ chainId: chain.config.id, address }],
    ...multiPartRequest("Vyper", p.get("compilerVersion")!.replace(/^vyper:/i, ""), {
      sourceFiles: { [`${p.get("name")}.vy`]: p.raw("contractSourceCode")! },
    }),
  }));
}

/**
 * `verify_via_sourcify`: the compiler's metadata file and the sources it names, as multipart `files[i]`. Blockscout
 * first asks sourcify.dev whether it knows the contract; Lookout is its own Sourcify, so the files are required.
 */
export function verifyViaSourcify(api: EtherscanApi, p: Params): Promise<Envelope> {
  const files = p.files;
  return run(api, p, ["addressHash"], (chain, address) => {
    // Blockscout's file checks, in its words.
    if (files.length < 2) throw new InvalidInputError("You should attach at least 2 files");
    const ext = (n: string) => n.slice(n.lastIndexOf(".") + 1).toLowerCase();
    const kept = files.filter((f) => ext(f.name) === "sol" || ext(f.name) === "json");
    if (!kept.some((f) => ext(f.name) === "sol") || !kept.some((f) => ext(f.name) === "json"))
      throw new InvalidInputError("You should attach at least one *.json and one *.sol files");
    const parsed = inputFromSourcifyFiles(Object.fromEntries(kept.map((f) => [f.name, f.content])), null);
    if (!parsed.ok) throw new InvalidInputError(parsed.message);
    return {
      language: parsed.language,
      compiler: parsed.compiler,
      contracts: [{ chainId: chain.config.id, address }],
      input: parsed.input,
    };
  });
}

/** An answer of `POST /api/v1/verified_smart_contracts`: HTTP status and JSON body. */
export type V1Answer = { httpStatus: 201 | 422; body: Record<string, string> };

/**
 * Blockscout's `POST /api/v1/verified_smart_contracts` (V1.VerifiedSmartContractController): the `verify` fields in
 * snake case; 201 `{"status":"success"}`, or 422 with `{"error": …}` or the failing field and why.
 */
export async function verifiedSmartContractsV1(api: EtherscanApi, p: Params): Promise<V1Answer> {
  const n = V1_NAMES;
  const fail = (body: Record<string, string>): V1Answer => ({ httpStatus: 422, body });
  const raw = p.get(n.address);
  if (!raw || !ADDRESS_RE.test(raw)) return fail({ error: "address_hash is invalid" });
  const absent = missing(p, [n.name, n.compiler, n.optimization, n.source]);
  if (absent) return fail({ [absent]: "can't be blank" });
  try {
    const chain = chainFor(api.chains, p.get("chainid"));
    const o = await publish(api, chain, flattenedRequest(p, n, chain.config.id, raw.toLowerCase()));
    switch (o.status) {
      case "verified":
        return { httpStatus: 201, body: { status: "success" } };
      case "no-code":
        return fail({ error: "address is not found" });
      case "already-verified":
        return fail({ error: "verified code already exists for this address" });
      case "failed":
        return fail({ contract_source_code: o.reason });
      case "pending":
        return fail({
          error: `verification is still running (GUID ${o.guid}); check it with checkverifystatus`,
        });
    }
  } catch (e) {
    if (e instanceof InvalidInputError) return fail({ error: e.message });
    throw e;
  }
}
