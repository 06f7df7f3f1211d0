import { recover } from "tiny-secp256k1";
import type { Address } from "viem";
import { hashAuthorization, hexToBytes, keccak256, numberToBytes } from "viem/utils";
import type { RpcAuthorization } from "../../../chain/types.js";

/** secp256k1's group order n: EIP-7702 takes only signatures with s <= n/2 (no malleable twin). */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** An authorization tuple as numbers, whatever the node's encoding. */
export type Authorization = {
  chainId: bigint;
  address: Address;
  nonce: bigint;
  /** y parity (Blockscout's `v`) */
  v: bigint;
  r: bigint;
  s: bigint;
};

export function parseAuthorization(a: RpcAuthorization): Authorization {
  return {
    chainId: BigInt(a.chainId),
    address: a.address.toLowerCase() as Address,
    nonce: BigInt(a.nonce),
    v: BigInt(a.yParity ?? a.v ?? "0x0"),
    r: BigInt(a.r),
    s: BigInt(a.s),
  };
}

/**
 * The authority that signed an authorization, as EIP-7702 recovers it: ecrecover of keccak256(0x05 || rlp([chain_id,
 * address, nonce])), with y parity 0 or 1 and 0 < r, s < n, s <= n/2; null when the signature recovers no address
 * under those rules. Synchronous: the recovery is libsecp256k1's (tiny-secp256k1, WebAssembly), about five times
 * faster here than viem's JavaScript curve, and an indexer recovers every authorization of the chain.
 */
export function recoverAuthority(a: Authorization): Address | null {
  if (a.v !== 0n && a.v !== 1n) return null;
  if (a.r <= 0n || a.r >= SECP256K1_N || a.s <= 0n || a.s > SECP256K1_N / 2n) return null;
  const digest = hexToBytes(
    hashAuthorization({
      // viem types chain id and nonce as numbers but encodes bigints as well: a uint256 chain id stays exact.
      address: a.address,
      chainId: a.chainId as unknown as number,
      nonce: a.nonce as unknown as number,
    }),
  );
  const signature = new Uint8Array(64);
  signature.set(numberToBytes(a.r, { size: 32 }), 0);
  signature.set(numberToBytes(a.s, { size: 32 }), 32);
  try {
    const key = recover(digest, signature, Number(a.v) as 0 | 1, false);
    // The address is the last 20 bytes of keccak256 of the uncompressed key without its 0x04 prefix.
    return key ? (`0x${keccak256(key.subarray(1)).slice(26)}` as Address) : null;
  } catch {
    // No point on the curve for this r.
    return null;
  }
}
