/**
 * Plain-value types of the matching engine. Transformations and values follow the Verifier Alliance format
 * (the `*_transformations` / `*_values` columns), so results can be stored and compared without conversion.
 */

export type Hex = `0x${string}`;

export type Language = "Solidity" | "Vyper" | "Yul";

/** `{ "<file>": { "<Library>": [{ start, length }] } }`, byte offsets into the code. */
export type LinkReferences = Record<string, Record<string, ReadonlyArray<{ start: number; length: number }>>>;

/** Solidity `immutableReferences`: `{ "<astId>": [{ start, length }] }`. */
export type ImmutableReferences = Record<string, ReadonlyArray<{ start: number; length: number }>>;

/** Known auxdata positions: `{ "1": { offset, value } }`, ids in code order; `value` includes any length suffix. */
export type CborAuxdataPositions = Record<string, { offset: number; value: Hex }>;

export type AbiParameterLike = {
  name?: string;
  type: string;
  components?: readonly AbiParameterLike[];
  internalType?: string;
};

export type AbiItemLike = {
  type: string;
  name?: string;
  inputs?: readonly AbiParameterLike[];
  [key: string]: unknown;
};

export type CompiledContract = {
  language: Language;
  /** As the compiler reports it, e.g. `0.8.18+commit.87f61d96` or `v0.4.1b1+commit.039d3692`. */
  compilerVersion: string;
  /** Creation (init) code; may hold `__$…$__` / `__Name___` library placeholders at `linkReferences`. */
  creationCode: string;
  /** Runtime (deployed) code; may hold placeholders at `deployedLinkReferences`. */
  runtimeCode: string;
  linkReferences?: LinkReferences | null;
  deployedLinkReferences?: LinkReferences | null;
  immutableReferences?: ImmutableReferences | null;
  /** From the compilation artifacts when known; `{}` means "known to have none". Undefined: derive. */
  creationCborAuxdata?: CborAuxdataPositions | null;
  runtimeCborAuxdata?: CborAuxdataPositions | null;
  abi?: readonly AbiItemLike[] | null;
};

export type OnchainContract = {
  /** `eth_getCode` at the address. */
  runtimeCode: string;
  /** The creation transaction input (or the CREATE/CREATE2 init code of a factory), when known. */
  creationInput?: string | null;
  /**
   * Both as bytes (null: absent or not hex), when the caller decoded them once to match many compiled contracts
   * against them (`decodeOnchain`); otherwise each match decodes them.
   */
  bytes?: { runtime: Uint8Array | null; creation: Uint8Array | null };
};

export type TransformationReason =
  | "library"
  | "immutable"
  | "cborAuxdata"
  | "constructorArguments"
  | "callProtection";

export type Transformation = {
  type: "insert" | "replace";
  reason: TransformationReason;
  /** Byte offset into the compiled code. */
  offset: number;
  id?: string;
};

export type TransformationValues = {
  /** Keyed by fully qualified library name `file:Library`. */
  libraries?: Record<string, Hex>;
  /** Keyed by immutable id (Solidity AST id; `"0"` for Vyper's appended section). */
  immutables?: Record<string, Hex>;
  cborAuxdata?: Record<string, Hex>;
  constructorArguments?: Hex;
  callProtection?: Hex;
};

export type MatchType = "full" | "partial";

export type MismatchReason =
  /** No on-chain code of this kind was given (e.g. genesis contracts have no creation input). */
  | "onchain_code_unavailable"
  | "compiled_code_empty"
  | "length_mismatch"
  | "bytecode_mismatch"
  | "constructor_arguments_invalid"
  | "library_addresses_inconsistent"
  | "immutable_values_inconsistent"
  | "unlinked_library_placeholder"
  | "invalid_hex"
  /** Vyper < 0.3.10 appends immutables whose size only the creation code tells; runtime code alone cannot prove it. */
  | "vyper_immutables_size_unknown"
  | "vyper_immutables_size_mismatch";

export type MismatchDiagnosis = {
  reason: MismatchReason;
  message: string;
  /** First byte (in the compiled code, after every transformation) that differs from the on-chain code. */
  firstDifferingByte?: number;
  compiledLength?: number;
  onchainLength?: number;
  /** Set when the CBOR metadata names different compiler versions: a likely wrong-version choice. */
  compilerVersions?: { compiled: string; onchain: string };
};

export type BytecodeMatch = {
  match: boolean;
  type: MatchType | null;
  transformations: Transformation[];
  values: TransformationValues;
  /** True iff the match is full: the code is identical and carries a metadata hash. */
  metadataMatch: boolean;
  diagnosis?: MismatchDiagnosis;
};

export type DecodedArgument = {
  name: string;
  type: string;
  /** ABI value with bigints as decimal strings, bytes as hex, tuples as arrays/objects: plain JSON. */
  value: unknown;
};

export type ConstructorArguments = { encoded: Hex; decoded: DecodedArgument[] };

export type ContractMatch = {
  creationMatch: BytecodeMatch;
  runtimeMatch: BytecodeMatch;
  /** Best of the two: full if either is full, partial if either matches, else null. */
  matchType: MatchType | null;
  constructorArguments: ConstructorArguments | null;
  /** ERC-5202 blueprint: the on-chain code is a preamble plus init code. */
  isBlueprint: boolean;
};
