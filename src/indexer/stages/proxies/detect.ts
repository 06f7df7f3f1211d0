import type { Address, Hex } from "viem";
import type { Rpc } from "../../../chain/rpc.js";

export type ProxyType = "eip1967" | "eip1822" | "eip897";
export type ProxyInfo = { proxyType: ProxyType; implementation: Address } | null;

/** bytes32(uint256(keccak256("eip1967.proxy.implementation")) - 1) */
export const EIP1967_IMPLEMENTATION_SLOT =
  "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";
/** keccak256("PROXIABLE") */
export const EIP1822_PROXIABLE_SLOT = "0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7";
/** implementation() */
export const EIP897_IMPLEMENTATION_SELECTOR = "0x5c60da1b";
/** Upgraded(address indexed implementation): EIP-1967 proxies emit it on every (re)initialisation. */
export const UPGRADED_TOPIC = "0xbc7cd75a20ee27fd9adebab32041f755214dbc6bffa90cc0225b39da2e5c2d3b";

/** A 32-byte word holding an address (upper 12 bytes zero, address non-zero), else null. Pure. */
export function wordToAddress(word: Hex | null | undefined): Address | null {
  if (!word || !/^0x[0-9a-fA-F]{64}$/.test(word)) return null;
  if (!/^0x0{24}/.test(word)) return null;
  const a = `0x${word.slice(26).toLowerCase()}` as Address;
  return /^0x0{40}$/.test(a) ? null : a;
}

/**
 * Whether runtime code can have an `implementation()` function: its selector's four bytes occur in it (a
 * dispatcher compares the call's selector with them). Blockscout calls that getter only where the verified ABI has
 * it; code without the bytes answers the call, if at all, from a fallback, as it would any other. Pure.
 */
export function mayImplementEip897(code: Hex): boolean {
  return code.toLowerCase().includes(EIP897_IMPLEMENTATION_SELECTOR.slice(2));
}

/**
 * Reads the implementation of a proxy at a block: the EIP-1967 slot, then the EIP-1822 slot, then EIP-897's
 * implementation(). Calls that fail count as "not this kind" (the contract may simply not answer). `code`: the
 * contract's runtime code where it is known (a creation's trace): without the getter's selector in it, no call.
 */
export async function detectProxy(
  rpc: Rpc,
  address: Address,
  blockNumber: number,
  code?: Hex,
): Promise<ProxyInfo> {
  const tag = `0x${blockNumber.toString(16)}`;
  const slot = (s: string) => rpc.request<Hex>("eth_getStorageAt", [address, s, tag]).catch(() => null);
  const [s1967, s1822, call897] = await Promise.all([
    slot(EIP1967_IMPLEMENTATION_SLOT),
    slot(EIP1822_PROXIABLE_SLOT),
    code !== undefined && !mayImplementEip897(code)
      ? null
      : rpc
          .request<Hex>("eth_call", [{ to: address, data: EIP897_IMPLEMENTATION_SELECTOR }, tag])
          .catch(() => null),
  ]);
  const i1967 = wordToAddress(s1967);
  if (i1967) return { proxyType: "eip1967", implementation: i1967 };
  const i1822 = wordToAddress(s1822);
  if (i1822) return { proxyType: "eip1822", implementation: i1822 };
  const i897 = wordToAddress(call897);
  if (i897) return { proxyType: "eip897", implementation: i897 };
  return null;
}
