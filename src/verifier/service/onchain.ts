import type { Queryable } from "../../db/db.js";
import type { VerifierChain } from "../chain-clients.js";
import type { Hex } from "../matching/index.js";
import { type CreationFacts, creationFromTransaction, indexedCreation } from "./creation.js";
import { type CreationLookupOptions, DEFAULT_CREATION_LOOKUP, lookUpCreation } from "./creation-lookup.js";

export { type CreationFacts, creationFromTransaction, indexedCreation } from "./creation.js";

export type OnchainFacts =
  | {
      status: "valid";
      runtimeCode: Hex;
      creation: CreationFacts | null;
      /** Why the creation could not be found (then only the runtime code is matched). */
      creationUnavailable?: string;
    }
  | { status: "invalid"; message: string };

/** Upstream's validation messages (Blockscout's proxy verifier), kept word for word for its clients. */
export const NOT_A_CONTRACT = "Address is not a smart-contract";
export const SELF_DESTRUCTED = "Smart-contract was self-destructed";

/**
 * Everything the verifier needs to know about one address before compiling: its runtime code and, where it can be
 * known, its creation. An address without code is INVALID: "self-destructed" when our index saw it created.
 */
export async function loadOnchainFacts(
  chain: VerifierChain,
  db: Queryable | null,
  address: string,
  opts: { creationTransactionHash?: string | null; lookup?: CreationLookupOptions } = {},
): Promise<OnchainFacts> {
  // The node and our index answer independently: one round trip's wait instead of two.
  const [code, fromIndex] = await Promise.all([
    chain.rpc.request<Hex>("eth_getCode", [address, "latest"]),
    chain.config.indexed && db ? indexedCreation(db, address) : null,
  ]);
  const runtimeCode = code.toLowerCase() as Hex;
  if (runtimeCode === "0x" || runtimeCode === ("0x0" as Hex)) {
    return { status: "invalid", message: fromIndex ? SELF_DESTRUCTED : NOT_A_CONTRACT };
  }
  let creation = fromIndex;
  if (!creation && opts.creationTransactionHash) {
    creation = await creationFromTransaction(chain, address, opts.creationTransactionHash).catch(() => null);
  }
  if (creation) return { status: "valid", runtimeCode, creation };
  // Not indexed (yet), or a chain we do not index: the same creation, found on the node.
  const found = await lookUpCreation(chain, db, address, opts.lookup ?? DEFAULT_CREATION_LOOKUP);
  return found.creation
    ? { status: "valid", runtimeCode, creation: found.creation }
    : { status: "valid", runtimeCode, creation: null, creationUnavailable: found.unavailable };
}
