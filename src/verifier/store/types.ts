import type {
  AbiItemLike,
  CompiledContract,
  Hex,
  Language,
  MatchType,
  Transformation,
  TransformationValues,
} from "../matching/index.js";

/** One verified contract as the store keeps it (the Verifier Alliance fields plus what re-matching needs). */
export type VerifiedContractRecord = {
  /** Decimal chain id. */
  chainId: string;
  /** Lower-case 0x address. */
  address: Hex;
  matchType: MatchType;
  creationMatch: MatchType | null;
  runtimeMatch: MatchType | null;
  /** Verified by the indexer because its code equals another verified contract's. */
  automatic: boolean;
  /** Automatic rows on the indexed chain: the creation block (a reorganisation below it removes the row). */
  blockNumber: number | null;
  verifiedFrom: { chainId: string; address: Hex } | null;
  language: Language;
  /** "solc" or "vyper". */
  compiler: string;
  /** Canonical, e.g. `v0.8.18+commit.87f61d96`. */
  compilerVersion: string;
  /** The standard JSON `settings` the contract was compiled with (outputSelection removed). */
  compilerSettings: Record<string, unknown>;
  /** path → content. */
  sources: Record<string, string>;
  fileName: string;
  contractName: string;
  abi: readonly AbiItemLike[] | null;
  constructorArguments: Hex | null;
  /** Fully qualified `file:Library` → address, linked by the compiler settings or found on chain. */
  libraries: Record<string, Hex>;
  creationTransformations: Transformation[] | null;
  creationValues: TransformationValues | null;
  runtimeTransformations: Transformation[] | null;
  runtimeValues: TransformationValues | null;
  /** The compiler's output for this contract, as the matching engine takes it (auxdata positions included). */
  compiled: CompiledContract;
  isBlueprint: boolean;
  onchainCreationCode: Hex | null;
  onchainRuntimeCode: Hex;
  creationTransactionHash: Hex | null;
  verifiedAt: Date;
};

export type NewVerifiedContract = Omit<VerifiedContractRecord, "verifiedAt">;

/** What saving did: stored as given, or kept the stored row (a full match is never replaced by a partial one). */
export type SaveOutcome = { outcome: "stored" | "kept"; record: VerifiedContractRecord };
