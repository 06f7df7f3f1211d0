import type { Address } from "viem";
import { fromBytea, fromByteaOrNull, toBytea, toByteaOrNull } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { CompiledContract, Hex, Language, MatchType } from "../matching/index.js";
import { codeBytesForIndex, creationPrefix } from "./code-keys.js";
import type { NewVerifiedContract, SaveOutcome, VerifiedContractRecord } from "./types.js";

type Row = {
  chain_id: number | string;
  address: Uint8Array;
  match_type: MatchType;
  creation_match: MatchType | null;
  runtime_match: MatchType | null;
  automatic: boolean;
  block_number: number | null;
  verified_from_chain_id: number | string | null;
  verified_from_address: Uint8Array | null;
  language: Language;
  compiler: string;
  compiler_version: string;
  compiler_settings: Record<string, unknown>;
  sources: Record<string, string>;
  file_name: string;
  contract_name: string;
  abi: VerifiedContractRecord["abi"];
  constructor_arguments: Uint8Array | null;
  libraries: Record<string, Hex>;
  creation_transformations: VerifiedContractRecord["creationTransformations"];
  creation_values: VerifiedContractRecord["creationValues"];
  runtime_transformations: VerifiedContractRecord["runtimeTransformations"];
  runtime_values: VerifiedContractRecord["runtimeValues"];
  compiled_artifacts: Omit<CompiledContract, "creationCode" | "runtimeCode">;
  compiled_creation_code: Uint8Array;
  compiled_runtime_code: Uint8Array;
  is_blueprint: boolean;
  onchain_creation_code: Uint8Array | null;
  onchain_runtime_code: Uint8Array;
  creation_transaction_hash: Uint8Array | null;
  verified_at: Date;
};

// JSON columns: PGlite and node-postgres both parse jsonb on the way out; on the way in a string is sent.
const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

export function rowToRecord(r: Row): VerifiedContractRecord {
  return {
    chainId: String(r.chain_id),
    address: fromBytea(r.address),
    matchType: r.match_type,
    creationMatch: r.creation_match,
    runtimeMatch: r.runtime_match,
    automatic: r.automatic,
    blockNumber: r.block_number === null ? null : Number(r.block_number),
    verifiedFrom:
      r.verified_from_chain_id !== null && r.verified_from_address
        ? { chainId: String(r.verified_from_chain_id), address: fromBytea(r.verified_from_address) }
        : null,
    language: r.language,
    compiler: r.compiler,
    compilerVersion: r.compiler_version,
    compilerSettings: r.compiler_settings,
    sources: r.sources,
    fileName: r.file_name,
    contractName: r.contract_name,
    abi: r.abi,
    constructorArguments: fromByteaOrNull(r.constructor_arguments),
    libraries: r.libraries,
    creationTransformations: r.creation_transformations,
    creationValues: r.creation_values,
    runtimeTransformations: r.runtime_transformations,
    runtimeValues: r.runtime_values,
    compiled: {
      ...r.compiled_artifacts,
      creationCode: fromBytea(r.compiled_creation_code),
      runtimeCode: fromBytea(r.compiled_runtime_code),
    },
    isBlueprint: r.is_blueprint,
    onchainCreationCode: fromByteaOrNull(r.onchain_creation_code),
    onchainRuntimeCode: fromBytea(r.onchain_runtime_code),
    creationTransactionHash: fromByteaOrNull(r.creation_transaction_hash),
    verifiedAt: r.verified_at,
  };
}

const COLUMNS = [
  "chain_id",
  "address",
  "match_type",
  "creation_match",
  "runtime_match",
  "automatic",
  "block_number",
  "verified_from_chain_id",
  "verified_from_address",
  "language",
  "compiler",
  "compiler_version",
  "compiler_settings",
  "sources",
  "file_name",
  "contract_name",
  "abi",
  "constructor_arguments",
  "libraries",
  "creation_transformations",
  "creation_values",
  "runtime_transformations",
  "runtime_values",
  "compiled_creation_code",
  "compiled_runtime_code",
  "compiled_artifacts",
  "is_blueprint",
  "onchain_creation_code",
  "onchain_runtime_code",
  "runtime_code_length",
  "creation_code_prefix",
  "creation_transaction_hash",
] as const;

function recordParams(c: NewVerifiedContract): unknown[] {
  const { creationCode, runtimeCode, ...artifacts } = c.compiled;
  const creation = codeBytesForIndex(creationCode, c.compiled.linkReferences);
  const runtime = codeBytesForIndex(runtimeCode, c.compiled.deployedLinkReferences);
  return [
    c.chainId,
    toBytea(c.address),
    c.matchType,
    c.creationMatch,
    c.runtimeMatch,
    c.automatic,
    c.blockNumber,
    c.verifiedFrom?.chainId ?? null,
    toByteaOrNull(c.verifiedFrom?.address),
    c.language,
    c.compiler,
    c.compilerVersion,
    json(c.compilerSettings),
    json(c.sources),
    c.fileName,
    c.contractName,
    json(c.abi),
    toByteaOrNull(c.constructorArguments),
    json(c.libraries),
    json(c.creationTransformations),
    json(c.creationValues),
    json(c.runtimeTransformations),
    json(c.runtimeValues),
    creation,
    runtime,
    json(artifacts),
    c.isBlueprint,
    toByteaOrNull(c.onchainCreationCode),
    toBytea(c.onchainRuntimeCode),
    runtime.length,
    creationPrefix(creation),
    toByteaOrNull(c.creationTransactionHash),
  ];
}

/**
 * Stores a verification, keeping the stored row when it is better: a full match is never replaced by a partial
 * one, and a user's verification never by an automatic one. One statement, so concurrent saves cannot interleave.
 */
export async function saveVerifiedContract(db: Queryable, c: NewVerifiedContract): Promise<SaveOutcome> {
  const placeholders = COLUMNS.map((_, i) => `$${i + 1}`).join(", ");
  const updates = COLUMNS.filter((k) => k !== "chain_id" && k !== "address")
    .map((k) => `${k} = excluded.${k}`)
    .join(", ");
  const rows = await db.query<{ verified_at: Date | string }>(
    `insert into verified_contracts (${COLUMNS.join(", ")}) values (${placeholders})
     on conflict (chain_id, address) do update set ${updates}, verified_at = now()
     where not (verified_contracts.match_type = 'full' and excluded.match_type = 'partial')
       and not (excluded.automatic and not verified_contracts.automatic)
     returning verified_at`,
    recordParams(c),
  );
  // The stored row is what was sent: no need to read back (and parse) sources and artifacts again.
  if (rows[0])
    return {
      outcome: "stored",
      record: { ...c, address: c.address.toLowerCase() as Hex, verifiedAt: new Date(rows[0].verified_at) },
    };
  const kept = await getVerifiedContract(db, c.chainId, c.address);
  if (!kept) throw new Error("verified_contracts: row vanished during save");
  return { outcome: "kept", record: kept };
}

export async function getVerifiedContract(
  db: Queryable,
  chainId: string,
  address: string,
): Promise<VerifiedContractRecord | null> {
  const [row] = await db.query<Row>("select * from verified_contracts where chain_id = $1 and address = $2", [
    chainId,
    toBytea(address),
  ]);
  return row ? rowToRecord(row) : null;
}

/** Candidates whose compiled runtime code is `length` bytes (Solidity runtime code keeps its compiled length). */
export async function candidatesByRuntimeLength(
  db: Queryable,
  length: number,
  limit = 50,
): Promise<VerifiedContractRecord[]> {
  const rows = await db.query<Row>(
    `select * from verified_contracts where runtime_code_length = $1 and not automatic
     order by (match_type = 'full') desc, verified_at desc limit $2`,
    [length, limit],
  );
  return rows.map(rowToRecord);
}

/** Candidates whose compiled creation code starts like `code` (the first bytes, placeholders zeroed). */
export async function candidatesByCreationPrefix(
  db: Queryable,
  code: Uint8Array,
  limit = 50,
): Promise<VerifiedContractRecord[]> {
  const rows = await db.query<Row>(
    `select * from verified_contracts where creation_code_prefix = $1 and not automatic
     order by (match_type = 'full') desc, verified_at desc limit $2`,
    [creationPrefix(code), limit],
  );
  return rows.map(rowToRecord);
}

/**
 * Verifications (full matches) of contracts whose on-chain runtime code or creation input is exactly the given one,
 * compiled by `compilerVersion`: a request for a copy of a verified contract can match against their compiled code
 * instead of compiling. Found through the runtime length and creation prefix indexes (Solidity runtime code keeps
 * its compiled length; a creation input starts with the compiled creation code). The creation input finds copies
 * whose immutables differ (e.g. an EIP-712 domain holding `address(this)`).
 */
export async function fullMatchesByOnchainCode(
  db: Queryable,
  onchain: { runtimeCode: Hex; creationInput: Hex | null },
  compilerVersion: string,
  limit = 10,
): Promise<VerifiedContractRecord[]> {
  const runtime = toBytea(onchain.runtimeCode);
  const creation = toByteaOrNull(onchain.creationInput);
  const rows = await db.query<Row>(
    `select * from verified_contracts
     where compiler_version = $3 and match_type = 'full'
       and ((runtime_code_length = $1 and onchain_runtime_code = $2)
         or (creation_code_prefix = $4 and onchain_creation_code = $5))
     order by automatic, verified_at desc limit $6`,
    [runtime.length, runtime, compilerVersion, creation ? creationPrefix(creation) : null, creation, limit],
  );
  return rows.map(rowToRecord);
}

/** Removes automatic verifications of contracts created above `ancestor` on the indexed chain (reorganisation). */
export async function revertAutomaticVerifications(
  db: Queryable,
  chainId: string,
  ancestor: number,
): Promise<void> {
  await db.query("delete from verified_contracts where automatic and chain_id = $1 and block_number > $2", [
    chainId,
    ancestor,
  ]);
}

/**
 * The store as the explorer sees it: verified contract names by lower-case address on the indexed chain
 * (or on `chainId` when given).
 */
export function createVerifiedContractLookup(
  db: Queryable,
  chainId?: string,
): (addresses: readonly Address[]) => Promise<ReadonlyMap<Address, { name: string }>> {
  return async (addresses) => {
    const out = new Map<Address, { name: string }>();
    if (addresses.length === 0) return out;
    const chain = chainId === undefined ? "(select chain_id from indexer_state where id = 1)" : "$2";
    const rows = await db.query<{ address: Uint8Array; contract_name: string }>(
      `select address, contract_name from verified_contracts
       where chain_id = ${chain} and address = any($1::bytea[])`,
      chainId === undefined ? [addresses.map(toBytea)] : [addresses.map(toBytea), chainId],
    );
    for (const r of rows) out.set(fromBytea(r.address) as Address, { name: r.contract_name });
    return out;
  };
}
