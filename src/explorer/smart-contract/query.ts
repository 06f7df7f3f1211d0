import type { Hex } from "viem";
import { newestCreation } from "../../chain-store/creations.js";
import { newestProxySql } from "../../chain-store/proxies.js";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { PAGE_LIMIT } from "../paging.js";

/** The newest indexed creation of a contract: its creation input and runtime code. */
export async function latestCreationCode(
  db: Queryable,
  address: string,
): Promise<{ initCode: Hex; runtimeCode: Hex | null } | null> {
  const c = await newestCreation(db, address);
  return c && { initCode: c.initCode, runtimeCode: c.runtimeCode };
}

/** `filter=` of the list → the stored language. */
const LANGUAGES = { solidity: "Solidity", vyper: "Vyper", yul: "Yul" } as const;
export type ContractsFilter = keyof typeof LANGUAGES;

export type ContractRow = {
  id: number;
  address: Uint8Array;
  constructor_arguments: Uint8Array | null;
  verified_at: Date;
  language: string;
  compiler_version: string;
  optimizer_enabled: boolean | null;
  license_type: string | null;
  coin_balance: string | null;
  transactions_count: number | null;
};

/**
 * One page of the indexed chain's verified contracts, newest verification first (keyset on the row id, Blockscout's
 * `smart_contract_id`): a backward scan of (chain_id, id), filtered by language and by `q` (contract name part, or
 * the address) as it goes, stopping at 51 rows. Balance and transactions count are one index probe per row.
 */
export const CONTRACTS_PAGE_SQL = `select v.id, v.address, v.constructor_arguments, v.verified_at, c.language, c.compiler_version,
    (c.compiler_settings #>> '{optimizer,enabled}')::boolean as optimizer_enabled, l.license_type,
    (select value::text from coin_balance_changes b where b.address = v.address
      order by b.block_number desc limit 1) as coin_balance,
    (select n.transactions_count from address_counters n where n.address = v.address) as transactions_count
  from verified_contracts v
  join verified_compilations c on c.id = v.compilation_id
  left join contract_licenses l on l.chain_id = v.chain_id and l.address = v.address
  where v.chain_id = $1 and v.id < $2
    and ($3::text is null or c.language = $3)
    and ($4::text is null or c.contract_name ilike $4 or v.address = $5)
  order by v.id desc
  limit $6`;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Up to PAGE_LIMIT rows of the list after the `before` id (CONTRACTS_PAGE_SQL). */
export function contractRows(
  db: Queryable,
  chainId: string,
  o: { q?: string | undefined; filter?: ContractsFilter | undefined; before?: number | undefined },
): Promise<ContractRow[]> {
  const q = o.q?.trim() || null;
  const asAddress = q && /^0x[0-9a-fA-F]{40}$/.test(q) ? toBytea(q) : null;
  return db.query<ContractRow>(CONTRACTS_PAGE_SQL, [
    chainId,
    o.before ?? Number.MAX_SAFE_INTEGER,
    o.filter ? LANGUAGES[o.filter] : null,
    q ? `%${escapeLike(q)}%` : null,
    asAddress,
    PAGE_LIMIT,
  ]);
}

export type CountersRow = {
  contracts: string;
  verified: string;
  new_contracts: string;
  new_verified: string;
};

/**
 * The figures of `GET /api/v2/smart-contracts/counters`: totals from the trigger-kept counters;
 * the 24-hour figures count only the window (creations from its first block, verifications by time).
 */
export async function countersRow(db: Queryable, chainId: string): Promise<CountersRow> {
  const [r] = await db.query<CountersRow>(
    `select coalesce((select value from smart_contract_counters where name = 'contracts'), 0)::text as contracts,
       coalesce((select value from smart_contract_counters where name = 'verified:' || $1::text), 0)::text as verified,
       (select count(*) from contract_creations where block_number >=
         (select coalesce(min(number), 9223372036854775807) from blocks
          where timestamp >= now() - interval '24 hours'))::text as new_contracts,
       (select count(*) from verified_contracts where chain_id = $1::int8
          and verified_at >= now() - interval '24 hours')::text as new_verified`,
    [chainId],
  );
  return r!;
}

/** The newest proxy record of an address and the license the verify form named (absent: none). */
export async function proxyAndLicense(db: Queryable, chainId: string, address: Hex) {
  const a = toBytea(address);
  const [proxy, license] = await Promise.all([
    db.query<{ proxy_type: string | null; implementation: Uint8Array | null }>(
      `select proxy_type, implementation from ${newestProxySql("$1", "proxy_type, implementation")} p`,
      [a],
    ),
    db.query<{ license_type: string }>(
      "select license_type from contract_licenses where chain_id = $1 and address = $2",
      [chainId, a],
    ),
  ]);
  return { proxy: proxy[0], license: license[0]?.license_type ?? null };
}
