import type { Address } from "viem";
import { INDEXED_CHAIN_ID_SQL } from "../../chain-store/checkpoint.js";
import { fromBytea, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { type AddressFacts, type AddressObject, addressView, unknownAddressFacts } from "./address-view.js";
import { NO_TAGS, type PublicTags } from "./tags.js";
import { NO_VERIFIED_CONTRACTS, type VerifiedContractLookup } from "./verified-store.js";

/** The parts of ExplorerDeps that address objects read (the database comes separately). */
export type AddressDeps = { verified?: VerifiedContractLookup; tags?: PublicTags };

const lower = (a: string) => a.toLowerCase() as Address;

/** Gathers the facts of several addresses with a few set-based queries. */
export async function loadAddressFacts(
  db: Queryable,
  addresses: readonly Address[],
  deps: AddressDeps = {},
): Promise<Map<Address, AddressFacts>> {
  const keys = [...new Set(addresses.map(lower))];
  const out = new Map<Address, AddressFacts>(keys.map((a) => [a, unknownAddressFacts(a)]));
  if (!keys.length) return out;
  const param = [keys.map(toBytea)];
  const [contracts, tokens, proxies] = await Promise.all([
    db.query<{ address: Uint8Array }>(
      `select address from contract_creations where address = any($1::bytea[])
       union select address from address_proxies where address = any($1::bytea[])
       union select address from tokens where address = any($1::bytea[])`,
      param,
    ),
    db.query<{ address: Uint8Array; name: string | null }>(
      "select address, name from tokens where address = any($1::bytea[])",
      param,
    ),
    db.query<{ address: Uint8Array; proxy_type: string; implementation: Uint8Array }>(
      `select distinct on (address) address, proxy_type, implementation from address_proxies
       where address = any($1::bytea[]) order by address, block_number desc`,
      param,
    ),
  ]);
  for (const r of contracts) out.get(fromBytea(r.address))!.isContract = true;
  for (const r of tokens) out.get(fromBytea(r.address))!.tokenName = r.name;
  const impls = proxies.map((p) => fromBytea(p.implementation));
  const verified = await (deps.verified ?? NO_VERIFIED_CONTRACTS)([...keys, ...impls]);
  for (const p of proxies)
    setProxy(out.get(fromBytea(p.address))!, p.proxy_type, fromBytea(p.implementation));
  finishFacts(out.values(), verified, deps.tags ?? NO_TAGS);
  return out;
}

function setProxy(f: AddressFacts, type: string, impl: Address): void {
  f.proxy = { type, implementations: [{ address: impl, name: null }] };
}

/** Verified names (of the addresses and of their implementations) and public tags, once the table facts are in. */
function finishFacts(
  facts: Iterable<AddressFacts>,
  verified: ReadonlyMap<Address, { name: string }>,
  tags: PublicTags,
): void {
  for (const f of facts) {
    for (const i of f.proxy?.implementations ?? []) i.name = verified.get(lower(i.address))?.name ?? null;
    const v = verified.get(f.hash);
    if (v) {
      f.isVerified = true;
      f.verifiedName = v.name;
    }
    f.tags = tags.get(f.hash) ?? [];
  }
}

/**
 * The table facts of one address as columns (o_is_contract, o_token_name, o_proxy_type, o_implementation) of a
 * one-row subquery, for statements that want the address object without extra round trips; `param` is the bytea
 * parameter holding the address. Same sources and rules as loadAddressFacts.
 */
export function addressFactsSubquery(param: string): string {
  return `(select (exists (select 1 from contract_creations where address = ${param})
      or exists (select 1 from address_proxies where address = ${param})
      or exists (select 1 from tokens where address = ${param})) as o_is_contract,
    (select name from tokens where address = ${param}) as o_token_name,
    o_proxy.proxy_type as o_proxy_type, o_proxy.implementation as o_implementation,
    ${verifiedName(param)} as o_verified_name, ${verifiedName("o_proxy.implementation")} as o_impl_verified_name
    from (select 1) one left join lateral (select proxy_type, implementation from address_proxies
      where address = ${param} order by block_number desc limit 1) o_proxy on true)`;
}

/**
 * The table facts of the address in `column` (of each row of a page statement), left-joined as `<alias>`:
 * `join` goes after the statement's FROM items, `columns` into its select list as `<alias>_is_contract`,
 * `<alias>_token_name`, `<alias>_proxy_type`, `<alias>_implementation`; factColumns reads them back. A page then
 * brings its address objects' facts in its own round trip.
 */
const FACT_NAMES = [
  "is_contract",
  "token_name",
  "proxy_type",
  "implementation",
  "verified_name",
  "impl_verified_name",
] as const;

export function addressFactsJoin(alias: string, column: string): { join: string; columns: string } {
  return {
    join: `left join lateral ${addressFactsSubquery(column)} ${alias} on true`,
    columns: FACT_NAMES.map((c) => `${alias}.o_${c} as ${alias}_${c}`).join(", "),
  };
}

/** Column names per alias, built once: every row of every page reads them. */
const factKeys = new Map<string, readonly string[]>();

export function factColumns(row: object, alias: string): AddressFactColumns {
  const r = row as Record<string, unknown>;
  let k = factKeys.get(alias);
  if (!k) {
    k = FACT_NAMES.map((c) => `${alias}_${c}`);
    factKeys.set(alias, k);
  }
  return {
    o_is_contract: r[k[0]!] as boolean,
    o_token_name: r[k[1]!] as string | null,
    o_proxy_type: r[k[2]!] as string | null,
    o_implementation: r[k[3]!] as Uint8Array | null,
    o_verified_name: r[k[4]!] as string | null,
    o_impl_verified_name: r[k[5]!] as string | null,
  };
}

/**
 * Address objects from facts a page statement brought (addressFactsJoin; each entry: the address, the row and the
 * alias its columns are under), keyed by lower-case address, with no
 * table queries: the verified names come with the facts when the store is `inSql`, else from one lookup for the
 * addresses and their implementations.
 */
export async function addressObjectsFromFacts(
  entries: Iterable<readonly [address: Uint8Array, row: object, alias: string]>,
  deps: AddressDeps,
): Promise<Map<Address, AddressObject>> {
  const facts = new Map<Address, AddressFacts>();
  const impls: Address[] = [];
  const names = new Map<Address, { name: string }>();
  for (const [bytes, columns, alias] of entries) {
    const a = fromBytea(bytes) as Address;
    // A page repeats its own address on every row: read each address's columns once.
    if (facts.has(a)) continue;
    const row = factColumns(columns, alias);
    const f = unknownAddressFacts(a);
    f.isContract = row.o_is_contract;
    f.tokenName = row.o_token_name;
    if (row.o_verified_name != null) names.set(a, { name: row.o_verified_name });
    if (row.o_implementation) {
      const impl = fromBytea(row.o_implementation);
      setProxy(f, row.o_proxy_type!, impl);
      impls.push(impl);
      if (row.o_impl_verified_name != null) names.set(impl, { name: row.o_impl_verified_name });
    }
    facts.set(a, f);
  }
  if (!facts.size) return new Map();
  const verified = deps.verified?.inSql
    ? names
    : await (deps.verified ?? NO_VERIFIED_CONTRACTS)([...facts.keys(), ...impls]);
  finishFacts(facts.values(), verified, deps.tags ?? NO_TAGS);
  return new Map([...facts].map(([k, f]) => [k, addressView(f)]));
}

/** The name of the contract at `address` verified on the indexed chain (primary-key probes), as a scalar subquery. */
function verifiedName(address: string): string {
  return `(select c.contract_name from verified_contracts v join verified_compilations c on c.id = v.compilation_id
    where v.chain_id = ${INDEXED_CHAIN_ID_SQL} and v.address = ${address})`;
}

export type AddressFactColumns = {
  o_is_contract: boolean;
  o_token_name: string | null;
  o_proxy_type: string | null;
  o_implementation: Uint8Array | null;
  /** Verified names of the address and of its implementation (used when the store is `inSql`). */
  o_verified_name?: string | null;
  o_impl_verified_name?: string | null;
};

/**
 * The address object from the columns of addressFactsSubquery. The verified-contract lookup of the address itself
 * can be started before the statement (`verifiedSelf`), so only a proxy's implementation needs a second one.
 */
export async function addressObjectFromColumns(
  address: Address,
  row: AddressFactColumns,
  deps: AddressDeps,
  verifiedSelf: Promise<ReadonlyMap<Address, { name: string }>>,
): Promise<AddressObject> {
  const f = unknownAddressFacts(lower(address));
  f.isContract = row.o_is_contract;
  f.tokenName = row.o_token_name;
  const impl = row.o_implementation ? fromBytea(row.o_implementation) : null;
  if (impl !== null) setProxy(f, row.o_proxy_type!, impl);
  const self = await verifiedSelf;
  const verified =
    impl === null ? self : new Map([...self, ...(await (deps.verified ?? NO_VERIFIED_CONTRACTS)([impl]))]);
  finishFacts([f], verified, deps.tags ?? NO_TAGS);
  return addressView(f);
}

/**
 * Address objects of several addresses whose table facts came as addressFactsSubquery columns of one statement
 * (a page of holders): one verified-contract lookup for the addresses and their implementations together.
 */
export async function addressObjectsFromColumns(
  rows: ReadonlyArray<{ address: Address; facts: AddressFactColumns }>,
  deps: AddressDeps,
): Promise<Map<Address, AddressObject>> {
  const out = new Map<Address, AddressFacts>();
  const impls: Address[] = [];
  for (const { address, facts: row } of rows) {
    const f = unknownAddressFacts(lower(address));
    f.isContract = row.o_is_contract;
    f.tokenName = row.o_token_name;
    if (row.o_implementation) {
      const impl = fromBytea(row.o_implementation) as Address;
      setProxy(f, row.o_proxy_type!, impl);
      impls.push(impl);
    }
    out.set(f.hash, f);
  }
  const verified = out.size
    ? await (deps.verified ?? NO_VERIFIED_CONTRACTS)([...out.keys(), ...impls])
    : new Map<Address, { name: string }>();
  finishFacts(out.values(), verified, deps.tags ?? NO_TAGS);
  return new Map([...out].map(([k, f]) => [k, addressView(f)]));
}

/** Address objects for several addresses, keyed by lower-case address. */
export async function loadAddressObjects(
  db: Queryable,
  addresses: readonly Address[],
  deps: AddressDeps = {},
): Promise<Map<Address, AddressObject>> {
  const facts = await loadAddressFacts(db, addresses, deps);
  return new Map([...facts].map(([k, f]) => [k, addressView(f)]));
}

export async function loadAddressObject(
  db: Queryable,
  address: Address,
  deps: AddressDeps = {},
): Promise<AddressObject> {
  return (await loadAddressObjects(db, [address], deps)).get(lower(address))!;
}
