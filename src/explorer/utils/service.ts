import type { Address, Hex } from "viem";
import { verifiedAbiFor } from "../decoding/abi.js";
import { type DecodedInput, decodeFunctionInput } from "../decoding/function-input.js";
import type { ExplorerDeps } from "../deps.js";
import { indexedChainId } from "../objects/verified-store.js";

/**
 * `/utils/decode-calldata`: the calldata decoded with the verified ABI of `address`, as a transaction's
 * decoded_input; null without an address (Lookout keeps no selector table to guess from), without a verified
 * ABI, or when the ABI does not decode it.
 */
export async function decodeCalldata(
  deps: ExplorerDeps,
  calldata: Hex,
  address: Address | null,
): Promise<{ result: DecodedInput | null }> {
  if (!address) return { result: null };
  const chainId = await indexedChainId(deps.db);
  const abi = chainId === null ? null : await verifiedAbiFor(deps.db, chainId, address);
  return { result: abi ? decodeFunctionInput(abi, calldata) : null };
}
