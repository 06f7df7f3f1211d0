import type { Address } from "viem";
import { INDEXED_CHAIN_ID_SQL } from "../../chain-store/checkpoint.js";
import { fromBytea, fromByteaOrNull, toBytea, toByteaOrNull } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { CompiledContract, Hex, Language, MatchType } from "../matching/index.js";
import { codeBytesForIndex, creationPrefix } from "./code-keys.js";
import { compilationId, inputHash } from "./keys.js";
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
  compiled_artifacts: Omit<CompiledContract, "creationCode" | "runtimeCode" | "abi">;
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

type CompiledColumns = Pick<
  Row,
  "abi" | "compiled_artifacts" | "compiled_creation_code" | "compiled_runtime_code"
>;

/** The compiler's output for one contract, as the matching engine takes it, from a compilation's columns. */
function compiledFromColumns(r: CompiledColumns): CompiledContract {
  return {
    ...r.compiled_artifacts,
    abi: r.abi,
    creationCode: fromBytea(r.compiled_creation_code),
    runtimeCode: fromBytea(r.compiled_runtime_code),
  };
}

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
    compiled: compiledFromColumns(r),
    isBlueprint: r.is_blueprint,
    onchainCreationCode: fromByteaOrNull(r.onchain_creation_code),
    onchainRuntimeCode: fromBytea(r.onchain_runtime_code),
    creationTransactionHash: fromByteaOrNull(r.creation_transaction_hash),
    verifiedAt: r.verified_at,
  };
}

/** A verified contract's row with its compilation's columns: what rowToRecord reads. */
const RECORD_COLUMNS = `v.*, c.language, c.compiler, c.compiler_version, c.compiler_settings, c.sources, c.file_name,
    c.contract_name, c.abi, c.compiled_creation_code, c.compiled_runtime_code, c.compiled_artifacts`;
const RECORDS = `select ${RECORD_COLUMNS}
  from verified_contracts v join verified_compilations c on c.id = v.compilation_id`;

const CONTRACT_COLUMNS = [
  "chain_id",
  "address",
  "compilation_id",
  "match_type",
  "creation_match",
  "runtime_match",
  "automatic",
  "block_number",
  "verified_from_chain_id",
  "verified_from_address",
  "constructor_arguments",
  "libraries",
  "creation_transformations",
  "creation_values",
  "runtime_transformations",
  "runtime_values",
  "is_blueprint",
  "onchain_creation_code",
  "onchain_runtime_code",
  "runtime_code_length",
  "creation_code_prefix",
  "creation_transaction_hash",
] as const;

const COMPILATION_COLUMNS = [
  "id",
  "input_hash",
  "language",
  "compiler",
  "compiler_version",
  "compiler_settings",
  "sources",
  "file_name",
  "contract_name",
  "abi",
  "compiled_creation_code",
  "compiled_runtime_code",
  "compiled_artifacts",
] as const;

/** Compiled code as stored (placeholders zeroed): computed once per save, used by both tables' parameters. */
type CodeBytes = { creation: Buffer; runtime: Buffer };

function codeBytes(c: NewVerifiedContract): CodeBytes {
  return {
    creation: codeBytesForIndex(c.compiled.creationCode, c.compiled.linkReferences),
    runtime: codeBytesForIndex(c.compiled.runtimeCode, c.compiled.deployedLinkReferences),
  };
}

function contractParams(c: NewVerifiedContract, id: Buffer, code: CodeBytes): unknown[] {
  return [
    c.chainId,
    toBytea(c.address),
    id,
    c.matchType,
    c.creationMatch,
    c.runtimeMatch,
    c.automatic,
    c.blockNumber,
    c.verifiedFrom?.chainId ?? null,
    toByteaOrNull(c.verifiedFrom?.address),
    toByteaOrNull(c.constructorArguments),
    json(c.libraries),
    json(c.creationTransformations),
    json(c.creationValues),
    json(c.runtimeTransformations),
    json(c.runtimeValues),
    c.isBlueprint,
    toByteaOrNull(c.onchainCreationCode),
    toBytea(c.onchainRuntimeCode),
    code.runtime.length,
    creationPrefix(code.creation),
    toByteaOrNull(c.creationTransactionHash),
  ];
}

function compilationParams(c: NewVerifiedContract, id: Buffer, code: CodeBytes, input: Buffer): unknown[] {
  const { creationCode: _creation, runtimeCode: _runtime, abi: _abi, ...artifacts } = c.compiled;
  return [
    id,
    input,
    c.language,
    c.compiler,
    c.compilerVersion,
    json(c.compilerSettings),
    json(c.sources),
    c.fileName,
    c.contractName,
    json(c.abi),
    code.creation,
    code.runtime,
    json(artifacts),
  ];
}

const placeholders = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `$${i + from}`).join(", ");

// Keeps the stored row when it is better: a full match is never replaced by a partial one, and a user's
// verification never by an automatic one.
const UPSERT_CONTRACT = `insert into verified_contracts (${CONTRACT_COLUMNS.join(", ")})
  values (${placeholders(CONTRACT_COLUMNS.length)})
  on conflict (chain_id, address) do update set ${CONTRACT_COLUMNS.filter(
    (k) => k !== "chain_id" && k !== "address",
  )
    .map((k) => `${k} = excluded.${k}`)
    .join(", ")}, verified_at = now()
  where not (verified_contracts.match_type = 'full' and excluded.match_type = 'partial')
    and not (excluded.automatic and not verified_contracts.automatic)
  returning verified_at`;

// The same, writing the compilation too when the contract row is stored (a kept row leaves no unused compilation).
// One statement: the foreign key is checked at its end, when both rows are in.
const UPSERT_WITH_COMPILATION = `with contract as (${UPSERT_CONTRACT}),
  compilation as (
    insert into verified_compilations (${COMPILATION_COLUMNS.join(", ")})
    select ${placeholders(COMPILATION_COLUMNS.length, CONTRACT_COLUMNS.length + 1)} where exists (select 1 from contract)
    on conflict (id) do nothing)
  select verified_at from contract`;

// Either statement with an asynchronous commit: the statement is its own transaction, and the setting (local to
// it) makes its commit skip waiting for the WAL flush (measured 2.4 ms → 0.7 ms per write). A crash of the database
// server may lose the last fraction of a second of such writes, never half of one: a verification is redone from
// its request, so the request's latency wins. Only for statements outside a caller's transaction.
const ASYNC_COMMIT = "durability as (select set_config('synchronous_commit', 'off', true) as off)";
const UPSERT_CONTRACT_ASYNC = `with ${ASYNC_COMMIT}, contract as (${UPSERT_CONTRACT})
  select verified_at from contract, durability`;
const UPSERT_WITH_COMPILATION_ASYNC = UPSERT_WITH_COMPILATION.replace(
  /^with /,
  `with ${ASYNC_COMMIT}, `,
).replace(/select verified_at from contract$/, "select verified_at from contract, durability");

/**
 * Stores a verification, keeping the stored row when it is better (see UPSERT_CONTRACT). The compilation (sources,
 * settings, ABI, compiled code) is sent only when the store does not hold it yet: a copy of a verified contract
 * writes one small row. The contract row and a new compilation are one statement, so they commit together.
 */
export async function saveVerifiedContract(
  db: Queryable,
  c: NewVerifiedContract,
  /** What the caller knows: the store holds the compilation (it matched from it) or does not; undefined: ask. */
  compilationStored?: boolean,
  o: {
    /** `db` is a pool (each statement its own transaction): commit without waiting for the WAL flush. */
    asyncCommit?: boolean;
    /** compilationId(c) and inputHash(c), when the caller has them already (the sources are not hashed again). */
    keys?: { compilationId: Buffer; inputHash: Buffer };
  } = {},
): Promise<SaveOutcome> {
  const id = o.keys?.compilationId ?? compilationId(c);
  const known =
    compilationStored ??
    (await db.query("select 1 from verified_compilations where id = $1", [id], { prepare: true })).length > 0;
  const code = codeBytes(c);
  const rows = known
    ? await db.query<{ verified_at: Date | string }>(
        o.asyncCommit ? UPSERT_CONTRACT_ASYNC : UPSERT_CONTRACT,
        contractParams(c, id, code),
        { prepare: true },
      )
    : await db.query<{ verified_at: Date | string }>(
        o.asyncCommit ? UPSERT_WITH_COMPILATION_ASYNC : UPSERT_WITH_COMPILATION,
        [
          ...contractParams(c, id, code),
          ...compilationParams(c, id, code, o.keys?.inputHash ?? inputHash(c)),
        ],
        // Parsing and planning this statement took 0.4-0.9 ms of every new verification's write.
        { prepare: true },
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
  const [row] = await db.query<Row>(`${RECORDS} where v.chain_id = $1 and v.address = $2`, [
    chainId,
    toBytea(address),
  ]);
  return row ? rowToRecord(row) : null;
}

/** The verified contracts of `addresses` on `chainId` (one statement; the absent ones are left out). */
export async function getVerifiedContracts(
  db: Queryable,
  chainId: string,
  addresses: readonly string[],
): Promise<VerifiedContractRecord[]> {
  if (addresses.length === 0) return [];
  const rows = await db.query<Row>(`${RECORDS} where v.chain_id = $1 and v.address = any($2::bytea[])`, [
    chainId,
    addresses.map(toBytea),
  ]);
  return rows.map(rowToRecord);
}

/** Candidates whose compiled runtime code is `length` bytes (Solidity runtime code keeps its compiled length). */
/**
 * Candidate records where `condition` holds (on `v`, verified_contracts), one per compilation: the copies of a
 * verified contract share its compilation (sources, settings, compiled code), so matching one stands for all, and a
 * popular contract's thousand copies would otherwise each bring its sources. Per compilation the full match, then the
 * newest; then the same order across compilations, $2 of them.
 */
function onePerCompilation(condition: string): string {
  return `select ${RECORD_COLUMNS}
    from (select distinct on (v.compilation_id) v.* from verified_contracts v
          where ${condition} and not v.automatic
          order by v.compilation_id, (v.match_type = 'full') desc, v.verified_at desc) v
    join verified_compilations c on c.id = v.compilation_id
    order by (v.match_type = 'full') desc, v.verified_at desc limit $2`;
}

export async function candidatesByRuntimeLength(
  db: Queryable,
  length: number,
  limit = 50,
): Promise<VerifiedContractRecord[]> {
  const rows = await db.query<Row>(onePerCompilation("v.runtime_code_length = $1"), [length, limit]);
  return rows.map(rowToRecord);
}

/** Candidates whose compiled creation code starts like `code` (the first bytes, placeholders zeroed). */
export async function candidatesByCreationPrefix(
  db: Queryable,
  code: Uint8Array,
  limit = 50,
): Promise<VerifiedContractRecord[]> {
  const rows = await db.query<Row>(onePerCompilation("v.creation_code_prefix = $1"), [
    creationPrefix(code),
    limit,
  ]);
  return rows.map(rowToRecord);
}

/** A stored compilation as a stored-copy lookup needs it: what the matching engine takes, and what names it. */
export type StoredCompilation = {
  inputHash: Buffer;
  fileName: string;
  contractName: string;
  compiled: VerifiedContractRecord["compiled"];
};

/**
 * Stored compilations of the given inputs (inputHash) that fully verified some contract: compiling those inputs
 * again would give this compiled code, so a request can match a contract against it instead of compiling (the
 * compilation cache may have forgotten the input; a restart empties its memory tier). Sources are not read: the key
 * stands for them. Independent of the on-chain code: a request asks it first, and compiles only when it finds none
 * (one index lookup then, as quick as an existence probe).
 */
export async function fullyVerifiedCompilations(
  db: Queryable,
  inputHashes: readonly Buffer[],
  limit = 10,
): Promise<StoredCompilation[]> {
  if (inputHashes.length === 0) return [];
  const rows = await db.query<
    Pick<
      Row,
      | "file_name"
      | "contract_name"
      | "abi"
      | "compiled_artifacts"
      | "compiled_creation_code"
      | "compiled_runtime_code"
    > & { input_hash: Uint8Array }
  >(
    `select c.input_hash, c.file_name, c.contract_name, c.abi, c.compiled_artifacts, c.compiled_creation_code,
       c.compiled_runtime_code
     from verified_compilations c
     where c.input_hash = any($1::bytea[])
       and exists (select 1 from verified_contracts v where v.compilation_id = c.id and v.match_type = 'full')
     limit $2`,
    [inputHashes, limit],
    { prepare: true },
  );
  return rows.map((r) => ({
    inputHash: Buffer.from(r.input_hash),
    fileName: r.file_name,
    contractName: r.contract_name,
    compiled: compiledFromColumns(r),
  }));
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
): ((addresses: readonly Address[]) => Promise<ReadonlyMap<Address, { name: string }>>) & {
  readonly inSql?: boolean;
} {
  const lookup = async (addresses: readonly Address[]) => {
    const out = new Map<Address, { name: string }>();
    if (addresses.length === 0) return out;
    const chain = chainId === undefined ? INDEXED_CHAIN_ID_SQL : "$2";
    const rows = await db.query<{ address: Uint8Array; contract_name: string }>(
      `select v.address, c.contract_name from verified_contracts v
         join verified_compilations c on c.id = v.compilation_id
       where v.chain_id = ${chain} and v.address = any($1::bytea[])`,
      chainId === undefined ? [addresses.map(toBytea)] : [addresses.map(toBytea), chainId],
      { prepare: true },
    );
    for (const r of rows) out.set(fromBytea(r.address) as Address, { name: r.contract_name });
    return out;
  };
  // The indexed chain's store in the database it is given (the explorer's own, as roles/http.ts plugs it): page
  // statements can read the names themselves (explorer/address/query.ts, addressFactsSubquery).
  return chainId === undefined ? Object.assign(lookup, { inSql: true }) : lookup;
}
