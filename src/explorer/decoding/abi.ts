import type { Abi, Address } from "viem";
import { newestProxiesSql } from "../../chain-store/proxies.js";
import { fromBytea, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { VERIFIED_ABIS_SQL } from "../../verifier/store/index-fragments.js";

/**
 * The ABI of the verified contract at `address` on `chainId` from Lookout's verified-contract store; for a proxy
 * whose implementation is verified, the implementation's functions are added (Blockscout decodes a proxy's calls
 * with its implementation's ABI; an EOA's calls with its EIP-7702 delegate's). Null when neither is verified.
 */
export async function verifiedAbiFor(
  db: Queryable,
  chainId: string | number,
  address: Address,
): Promise<Abi | null> {
  return (await verifiedAbisFor(db, chainId, [address])).get(address.toLowerCase() as Address) ?? null;
}

/** verifiedAbiFor for several addresses in two statements; keys are lower-case addresses that have an ABI. */
export async function verifiedAbisFor(
  db: Queryable,
  chainId: string | number,
  addresses: readonly Address[],
): Promise<Map<Address, Abi>> {
  const out = new Map<Address, Abi>();
  const keys = [...new Set(addresses.map((a) => a.toLowerCase()))];
  if (!keys.length) return out;
  const proxies = await db.query<{ address: Uint8Array; implementation: Uint8Array | null }>(
    newestProxiesSql("$1::bytea[]", "implementation"),
    [keys.map(toBytea)],
  );
  // A revoked EIP-7702 delegation's row names no implementation.
  const implOf = new Map(
    proxies.flatMap((p) =>
      p.implementation ? [[fromBytea(p.address), fromBytea(p.implementation)] as const] : [],
    ),
  );
  const all = [...new Set([...keys, ...implOf.values()])];
  const rows = await db.query<{ address: Uint8Array; abi: Abi | null }>(
    VERIFIED_ABIS_SQL,
    [all.map(toBytea), String(chainId)],
    { prepare: true },
  );
  const abiOf = new Map(rows.filter((r) => Array.isArray(r.abi)).map((r) => [fromBytea(r.address), r.abi!]));
  for (const k of keys) {
    const own = abiOf.get(k as Address) ?? [];
    const impl = implOf.get(k as Address);
    const merged = [...own, ...((impl && abiOf.get(impl)) || [])];
    if (merged.length) out.set(k as Address, merged);
  }
  return out;
}
