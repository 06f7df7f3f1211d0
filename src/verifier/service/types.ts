import type { Queryable } from "../../db/db.js";
import type { VerifierChain } from "../chain-clients.js";
import type {
  CompileRequest,
  CompilerLanguage,
  CompilerOutput,
  StandardJsonInput,
} from "../compilers/index.js";
import type {
  BytecodeMatch,
  ConstructorArguments,
  Hex,
  MatchType,
  Transformation,
  TransformationValues,
} from "../matching/index.js";
import type { VerifiedContractRecord } from "../store/types.js";
import type { CreationLookupOptions } from "./creation-lookup.js";

export type { CreationLookupOptions };

import type { CompileAttempt } from "../requests/solidity.js";
import type { OnchainFacts } from "./onchain.js";

/** What the verify service needs from compiler management (CompilerRegistry fits). */
export type VerifierCompilers = {
  compile(req: CompileRequest): Promise<CompilerOutput>;
  /** Canonical `v…` name; throws InvalidInputError for unknown versions. */
  resolveVersion(language: CompilerLanguage, version: string): string;
  /** EVM versions of the version, "default" included; throws InvalidInputError for unknown versions. */
  evmVersions(language: CompilerLanguage, version: string): string[];
  /**
   * Resolves when compiler discovery has finished (or its wait bound passed): the three lookups above answer the
   * same right after start as later.
   */
  settled?(): Promise<unknown>;
};

export type VerifyDeps = {
  /** Verifier chains by decimal id. */
  chains: ReadonlyMap<string, VerifierChain>;
  compilers: VerifierCompilers;
  /**
   * Our database: the index (creation data of the indexed chain) and the verified-contract store. A pool, not a
   * transaction: the store's write commits on its own.
   */
  db: Queryable;
  /**
   * Commit the store's write without waiting for the WAL flush (VERIFIER_ASYNC_COMMIT, off by default): faster,
   * but a crash of the database server may lose the last moments of results already answered as verified.
   */
  asyncCommit?: boolean;
  /** How creations missing from the index are looked up (wait for the indexer, RPC budget); defaults apply. */
  creationLookup?: CreationLookupOptions;
  /** Told how long each phase of a request took (benchmarks, profiling); phases may overlap. */
  phases?: (phase: VerifyPhase, ms: number) => void;
};

/**
 * Phases of one verify request: `code` (eth_getCode and our index, per request), `creation` (creation facts not
 * in the index: node lookup), `storedLookup` (the store's compilations of these inputs), `compile` (every compiler
 * call, cache included), `match`, `store` (the store's writes).
 */
export type VerifyPhase = "code" | "creation" | "storedLookup" | "compile" | "match" | "store";

export type ContractRef = {
  /** Decimal chain id (a number is accepted too). */
  chainId: string | number;
  address: string;
  /** When known (Etherscan/Sourcify clients send it), lets chains we do not index give creation data. */
  creationTransactionHash?: string | null;
  /** On-chain facts the caller already holds and has checked (e.g. against our index): the chain is not asked. */
  knownFacts?: OnchainFacts;
};

export type VerifyRequest = {
  language: CompilerLanguage;
  /** Requested compiler version (`v` and a shortened commit allowed). */
  compiler: string;
  contracts: readonly ContractRef[];
  /** One standard JSON input ... */
  input?: StandardJsonInput;
  /** ... or attempts tried in order (multi-part); the first attempt that verifies a contract wins for it. */
  attempts?: readonly CompileAttempt[];
  /** The sources could not even be read (e.g. a standard JSON string that does not parse): reported as a
   *  compilation failure, after the request itself (chains, addresses, version) has been validated. */
  inputProblem?: string;
};

export type ValidationItem = {
  status: "VALID" | "INVALID";
  message: string;
  chainId: string;
  address: Hex;
};

export type VerificationStatus = "FULLY_VERIFIED" | "PARTIALLY_VERIFIED" | "FAILURE";

/** Why a contract did not verify, in words and as data. */
export type FailureDiagnosis = {
  reason:
    | "no_match"
    /** The runtime code matches, the known creation code does not (constructor, initial values). */
    | "creation_code_mismatch"
    | "wrong_compiler_version"
    | "optimizer_settings_suspected"
    | "constructor_arguments_invalid"
    | "no_code_in_output"
    | "onchain_data_unavailable"
    /** Vyper runtime-only: immutables appended on chain whose size the compiled code does not state. */
    | "vyper_immutables";
  message: string;
  closest?: {
    contractName: string;
    fileName: string;
    side: "creation" | "runtime";
    firstDifferingByte?: number;
    compiledLength?: number;
    onchainLength?: number;
  };
  compilerVersions?: { compiled: string; onchain: string };
};

export type VerificationItem = {
  status: VerificationStatus;
  message: string;
  chainId: string;
  address: Hex;
  contractName?: string;
  fileName?: string;
  matchType?: MatchType;
  creationMatch?: MatchType | null;
  runtimeMatch?: MatchType | null;
  transformations?: {
    creation: Transformation[];
    runtime: Transformation[];
    creationValues: TransformationValues;
    runtimeValues: TransformationValues;
  };
  constructorArguments?: ConstructorArguments | null;
  /** Why only the runtime code could be matched: the creation was not found (e.g. the node keeps no old state). */
  creationUnavailable?: string;
  /** True when the store already held a full match and keeps it (this request matched only partially). */
  alreadyVerified?: boolean;
  /**
   * With `alreadyVerified`: what these sources verified (not stored), for the dialects that answer with the
   * verified source (eth-bytecode-db). Not part of the proxy verifier's item.
   */
  sent?: VerifiedContractRecord;
  diagnosis?: FailureDiagnosis;
};

export type VerifyResponse =
  | { kind: "validation"; items: ValidationItem[] }
  | { kind: "compilationFailure"; message: string; errors: string[] }
  | { kind: "verification"; items: VerificationItem[] };

export type { BytecodeMatch };
