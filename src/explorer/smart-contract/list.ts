import type { Address } from "viem";
import { fromBytea, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { ExplorerDeps } from "../deps.js";
import type { AddressObject } from "../objects/address-view.js";
import { PAGE_LIMIT, page } from "../paging.js";

/** `filter=` of the list → the stored language. */
const LANGUAGES = { solidity: "Solidity", vyper: "Vyper", yul: "Yul" } as const;
export type ContractsFilter = keyof typeof LANGUAGES;

export type ContractsPageParams = { smart_contract_id: number; items_count: number };

type Row = {
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

/** `GET /api/v2/smart-contracts` (frontend type `VerifiedContractsResponse`). */
export async function contractsPage(
  db: Queryable,
  chainId: string,
  o: { q?: string | undefined; filter?: ContractsFilter | undefined; before?: number | undefined },
  deps: Omit<ExplorerDeps, "db">,
) {
  const q = o.q?.trim() || null;
  const asAddress = q && /^0x[0-9a-fA-F]{40}$/.test(q) ? toBytea(q) : null;
  const rows = await db.query<Row>(CONTRACTS_PAGE_SQL, [
    chainId,
    o.before ?? Number.MAX_SAFE_INTEGER,
    o.filter ? LANGUAGES[o.filter] : null,
    q ? `%${escapeLike(q)}%` : null,
    asAddress,
    PAGE_LIMIT,
  ]);
  return page({
    rows,
    cursor: (last) => ({ smart_contract_id: last.id }),
    addressesOf: (rows) => rows.map((r) => fromBytea(r.address) as Address),
    deps: { ...deps, db },
    render: (rows, addresses) => rows.map((r) => contractItem(r, addresses)),
  });
}

/** One item of the list (frontend type `VerifiedContract`). */
function contractItem(r: Row, addresses: ReadonlyMap<Address, AddressObject>) {
  return {
    address: addresses.get(fromBytea(r.address) as Address)!,
    certified: false,
    coin_balance: r.coin_balance ?? "0",
    compiler_version: r.compiler_version,
    language: r.language.toLowerCase(),
    has_constructor_args: r.constructor_arguments !== null && r.constructor_arguments.length > 0,
    optimization_enabled: r.optimizer_enabled ?? r.language === "Vyper",
    // Blockscout's Address.transactions_count: the counter the indexer keeps (a primary-key read), null if none.
    transactions_count: r.transactions_count === null ? null : Number(r.transactions_count),
    verified_at: r.verified_at.toISOString(),
    market_cap: null,
    license_type: r.license_type,
  };
}

/**
 * `GET /api/v2/smart-contracts/counters` (`VerifiedContractsCounters`): totals from the trigger-kept counters;
 * the 24-hour figures count only the window (creations from its first block, verifications by time).
 */
export async function contractsCounters(db: Queryable, chainId: string) {
  const [r] = await db.query<{
    contracts: string;
    verified: string;
    new_contracts: string;
    new_verified: string;
  }>(
    `select coalesce((select value from smart_contract_counters where name = 'contracts'), 0)::text as contracts,
       coalesce((select value from smart_contract_counters where name = 'verified:' || $1::text), 0)::text as verified,
       (select count(*) from contract_creations where block_number >=
         (select coalesce(min(number), 9223372036854775807) from blocks
          where timestamp >= now() - interval '24 hours'))::text as new_contracts,
       (select count(*) from verified_contracts where chain_id = $1::int8
          and verified_at >= now() - interval '24 hours')::text as new_verified`,
    [chainId],
  );
  return {
    smart_contracts: r!.contracts,
    verified_smart_contracts: r!.verified,
    new_smart_contracts_24h: r!.new_contracts,
    new_verified_smart_contracts_24h: r!.new_verified,
  };
}
