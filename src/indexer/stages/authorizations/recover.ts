import type { Address, Hex } from "viem";
import { recoverAuthorizationAddress } from "viem/utils";
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

const hex = (n: bigint) => `0x${n.toString(16)}` as Hex;

/**
 * The authority that signed an authorization, as EIP-7702 recovers it: ecrecover of keccak256(0x05 || rlp([chain_id,
 * address, nonce])), with y parity 0 or 1 and 0 < r, s < n, s <= n/2; null when the signature recovers no address
 * under those rules.
 */
export async function recoverAuthority(a: Authorization): Promise<Address | null> {
  if (a.v !== 0n && a.v !== 1n) return null;
  if (a.r <= 0n || a.r >= SECP256K1_N || a.s <= 0n || a.s > SECP256K1_N / 2n) return null;
  try {
    const authority = await recoverAuthorizationAddress({
      // viem types chain id and nonce as numbers but encodes bigints as well: a uint256 chain id stays exact.
      authorization: {
        address: a.address,
        chainId: a.chainId as unknown as number,
        nonce: a.nonce as unknown as number,
      },
      signature: { r: hex(a.r), s: hex(a.s), yParity: Number(a.v) },
    });
    return authority.toLowerCase() as Address;
  } catch {
    // No point on the curve for this r, or no key recovers it.
    return null;
  }
}
