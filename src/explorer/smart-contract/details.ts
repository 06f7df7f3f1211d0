import { type Abi, type Address, getAddress, type Hex } from "viem";
import { fromBytea, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { VerifiedContractLookup } from "../objects/verified-store.js";

type AbiEntry = { type?: string; stateMutability?: string; constant?: boolean };

/** Read and write methods of an ABI, as Blockscout splits them (view/pure or constant reads; the rest writes). */
export function abiMethodFlags(abi: Abi | null) {
  const fns = ((abi ?? []) as readonly AbiEntry[]).filter((i) => i.type === "function");
  const isRead = (f: AbiEntry) =>
    f.stateMutability === "view" || f.stateMutability === "pure" || f.constant === true;
  return { has_methods_read: fns.some(isRead), has_methods_write: fns.some((f) => !isRead(f)) };
}

/**
 * The parts of Blockscout's smart-contract object that are facts about the address rather than the verification:
 * proxy type and implementations (our proxy index), creation status, the license the verify form named.
 */
export async function contractFacts(
  db: Queryable,
  chainId: string,
  address: Hex,
  verified: VerifiedContractLookup | undefined,
  runtimeCode: Hex | null,
) {
  const a = toBytea(address);
  const [proxy, license] = await Promise.all([
    db.query<{ proxy_type: string | null; implementation: Uint8Array | null }>(
      "select proxy_type, implementation from address_proxies where address = $1 order by block_number desc limit 1",
      [a],
    ),
    db.query<{ license_type: string }>(
      "select license_type from contract_licenses where chain_id = $1 and address = $2",
      [chainId, a],
    ),
  ]);
  const p = proxy[0];
  const impl = p?.implementation ? (fromBytea(p.implementation) as Address) : null;
  const names = impl && verified ? await verified([impl]) : new Map();
  return {
    proxy_type: p?.proxy_type ?? null,
    implementations: impl ? [{ address_hash: getAddress(impl), name: names.get(impl)?.name ?? null }] : [],
    conflicting_implementations: null,
    // Blockscout: "success", or "selfdestructed" when the code is gone.
    creation_status: runtimeCode === null || runtimeCode === "0x" ? "selfdestructed" : "success",
    license_type: license[0]?.license_type ?? null,
    certified: false,
    is_verified_via_verifier_alliance: false,
  };
}
