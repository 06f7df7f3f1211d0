import type { Address } from "viem";
import { fromBytea, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { NO_TAGS, type PublicTags } from "./tags.js";
import { type AddressFacts, type AddressObject, addressView, unknownAddressFacts } from "./view.js";

/** The verified-contract store as the explorer sees it: verified contract names by (lower-case) address. */
export type VerifiedContractLookup = (
  addresses: readonly Address[],
) => Promise<ReadonlyMap<Address, { name: string }>>;

export const NO_VERIFIED_CONTRACTS: VerifiedContractLookup = async () => new Map();

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
  const verifiedName = (a: Address) => verified.get(lower(a))?.name ?? null;
  for (const p of proxies) {
    const impl = fromBytea(p.implementation);
    out.get(fromBytea(p.address))!.proxy = {
      type: p.proxy_type,
      implementations: [{ address: impl, name: verifiedName(impl) }],
    };
  }
  const tags = deps.tags ?? NO_TAGS;
  for (const f of out.values()) {
    const v = verified.get(f.hash);
    if (v) {
      f.isVerified = true;
      f.verifiedName = v.name;
    }
    f.tags = tags.get(f.hash) ?? [];
  }
  return out;
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
