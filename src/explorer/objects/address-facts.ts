import type { Address } from "viem";
import { newestProxiesSql, newestProxySql } from "../../chain-store/proxies.js";
import { fromBytea, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { verifiedNameSql } from "../../verifier/store/index-fragments.js";
import { type AddressFacts, type AddressObject, addressView, unknownAddressFacts } from "./address-view.js";
import { NO_TAGS, type PublicTags } from "./tags.js";
import { NO_VERIFIED_CONTRACTS, type VerifiedContractLookup } from "./verified-store.js";

/** The parts of ExplorerDeps that address objects read (the database comes separately). */
export type AddressDeps = { verified?: VerifiedContractLookup; tags?: PublicTags };

type VerifiedNames = ReadonlyMap<Address, { name: string }>;

const lower = (a: string) => a.toLowerCase() as Address;

/** The table facts of one address: the columns of addressFactsSubquery (or addressFactsJoin via factColumns). */
export type AddressFactColumns = {
  o_is_contract: boolean;
  o_token_name: string | null;
  o_proxy_type: string | null;
  o_implementation: Uint8Array | null;
  /** Verified names of the address and of its implementation (used when the store is `inSql`). */
  o_verified_name?: string | null;
  o_impl_verified_name?: string | null;
};

/** An address (bytes as stored, or hex) and its table facts. */
export type FactsEntry = readonly [address: Uint8Array | Address, facts: AddressFactColumns];

/**
 * The table facts of one address as columns (o_is_contract, o_token_name, o_proxy_type, o_implementation) of a
 * one-row subquery, for statements that want the address object without extra round trips; `param` is the bytea
 * parameter holding the address. Same sources and rules as loadAddressObjects.
 */
export function addressFactsSubquery(param: string): string {
  // A proxy row counts as a contract only while it names an implementation: an EIP-7702 revocation row (null)
  // leaves an EOA again, as Blockscout clears its code.
  return `(select (exists (select 1 from contract_creations where address = ${param})
      or o_proxy.implementation is not null
      or exists (select 1 from tokens where address = ${param})) as o_is_contract,
    (select name from tokens where address = ${param}) as o_token_name,
    o_proxy.proxy_type as o_proxy_type, o_proxy.implementation as o_implementation,
    ${verifiedNameSql(param)} as o_verified_name, ${verifiedNameSql("o_proxy.implementation")} as o_impl_verified_name
    from (select 1) one left join lateral ${newestProxySql(param, "proxy_type, implementation")} o_proxy on true)`;
}

const FACT_NAMES = [
  "is_contract",
  "token_name",
  "proxy_type",
  "implementation",
  "verified_name",
  "impl_verified_name",
] as const;

/**
 * The table facts of the address in `column` (of each row of a page statement), left-joined as `<alias>`:
 * `join` goes after the statement's FROM items, `columns` into its select list as `<alias>_is_contract`,
 * `<alias>_token_name`, `<alias>_proxy_type`, `<alias>_implementation`; factColumns reads them back. A page then
 * brings its address objects' facts in its own round trip.
 */
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
 * Address objects from table facts a statement brought (addressFactsSubquery or addressFactsJoin columns), keyed
 * by lower-case address; a page repeats addresses, the first entry of each counts. The verified names come with
 * the facts when the store is `inSql` and the columns carry them, else from one lookup for the addresses and their
 * implementations. `verifiedSelf`: the lookup of the addresses themselves, started before the statement, so only
 * implementations need another one.
 */
export async function addressObjectsFromColumns(
  entries: Iterable<FactsEntry>,
  deps: AddressDeps,
  verifiedSelf?: Promise<VerifiedNames>,
): Promise<Map<Address, AddressObject>> {
  const facts = new Map<Address, AddressFacts>();
  const impls: Address[] = [];
  const inColumns = new Map<Address, { name: string }>();
  let namesInColumns = deps.verified?.inSql === true && verifiedSelf === undefined;
  for (const [address, row] of entries) {
    const a = typeof address === "string" ? lower(address) : fromBytea(address);
    if (facts.has(a)) continue;
    const f = unknownAddressFacts(a);
    f.isContract = row.o_is_contract;
    f.tokenName = row.o_token_name;
    if (row.o_verified_name === undefined) namesInColumns = false;
    else if (row.o_verified_name !== null) inColumns.set(a, { name: row.o_verified_name });
    if (row.o_implementation) {
      const impl = fromBytea(row.o_implementation);
      f.proxy = { type: row.o_proxy_type!, implementations: [{ address: impl, name: null }] };
      impls.push(impl);
      if (row.o_impl_verified_name != null) inColumns.set(impl, { name: row.o_impl_verified_name });
    }
    facts.set(a, f);
  }
  if (!facts.size) return new Map();
  const lookup = deps.verified ?? NO_VERIFIED_CONTRACTS;
  const verified = namesInColumns
    ? inColumns
    : verifiedSelf
      ? new Map([...(await verifiedSelf), ...(impls.length ? await lookup(impls) : [])])
      : await lookup([...facts.keys(), ...impls]);
  const tags = deps.tags ?? NO_TAGS;
  const out = new Map<Address, AddressObject>();
  for (const [a, f] of facts) {
    for (const i of f.proxy?.implementations ?? []) i.name = verified.get(lower(i.address))?.name ?? null;
    const v = verified.get(a);
    if (v) {
      f.isVerified = true;
      f.verifiedName = v.name;
    }
    f.tags = tags.get(a) ?? [];
    out.set(a, addressView(f));
  }
  return out;
}

/**
 * Address objects for several addresses, keyed by lower-case address: their table facts gathered with a few
 * set-based queries (same sources and rules as addressFactsSubquery), then built as addressObjectsFromColumns does.
 */
export async function loadAddressObjects(
  db: Queryable,
  addresses: readonly Address[],
  deps: AddressDeps = {},
): Promise<Map<Address, AddressObject>> {
  const keys = [...new Set(addresses.map(lower))];
  if (!keys.length) return new Map();
  const columns = new Map<Address, AddressFactColumns>(
    keys.map((a) => [
      a,
      { o_is_contract: false, o_token_name: null, o_proxy_type: null, o_implementation: null },
    ]),
  );
  const param = [keys.map(toBytea)];
  const [contracts, tokens, proxies] = await Promise.all([
    db.query<{ address: Uint8Array }>(
      `select address from contract_creations where address = any($1::bytea[])
       union select address from tokens where address = any($1::bytea[])`,
      param,
    ),
    db.query<{ address: Uint8Array; name: string | null }>(
      "select address, name from tokens where address = any($1::bytea[])",
      param,
    ),
    db.query<{ address: Uint8Array; proxy_type: string; implementation: Uint8Array | null }>(
      newestProxiesSql("$1::bytea[]", "proxy_type, implementation"),
      param,
    ),
  ]);
  for (const r of contracts) columns.get(fromBytea(r.address))!.o_is_contract = true;
  for (const r of tokens) columns.get(fromBytea(r.address))!.o_token_name = r.name;
  for (const p of proxies) {
    if (!p.implementation) continue;
    const c = columns.get(fromBytea(p.address))!;
    c.o_is_contract = true;
    c.o_proxy_type = p.proxy_type;
    c.o_implementation = p.implementation;
  }
  return addressObjectsFromColumns(columns, deps);
}

export async function loadAddressObject(
  db: Queryable,
  address: Address,
  deps: AddressDeps = {},
): Promise<AddressObject> {
  return (await loadAddressObjects(db, [address], deps)).get(lower(address))!;
}
