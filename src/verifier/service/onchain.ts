import type { Queryable } from "../../db/db.js";
import type { VerifierChain } from "../chain-clients.js";
import type { Hex } from "../matching/index.js";
import { type CreationFacts, creationFromTransaction, indexedCreation } from "./creation.js";
import { type CreationLookupOptions, DEFAULT_CREATION_LOOKUP, lookUpCreation } from "./creation-lookup.js";

export { type CreationFacts, creationFromTransaction, indexedCreation } from "./creation.js";

export type ValidFacts = {
  status: "valid";
  runtimeCode: Hex;
  creation: CreationFacts | null;
  /** Why the creation could not be found (then only the runtime code is matched). */
  creationUnavailable?: string;
};

export type OnchainFacts = ValidFacts | { status: "invalid"; message: string };

/**
 * The first stage of the facts: whether the address holds code (all a validation result needs). The creation
 * our index holds is still being read (`indexed`); it and, when needed, the node lookup are a second stage that
 * may run while compiling.
 */
export type CodeFacts =
  | { status: "code"; runtimeCode: Hex; indexed: Promise<CreationFacts | null> }
  | { status: "invalid"; message: string };

/** Upstream's validation messages (Blockscout's proxy verifier), kept word for word for its clients. */
export const NOT_A_CONTRACT = "Address is not a smart-contract";
export const SELF_DESTRUCTED = "Smart-contract was self-destructed";

/**
 * The runtime code at `address`, and our index's read of its creation started alongside. Only the code is waited
 * for: it decides validity. An address without code is INVALID: "self-destructed" when our index saw it created.
 */
export async function loadCode(
  chain: VerifierChain,
  db: Queryable | null,
  address: string,
): Promise<CodeFacts> {
  const indexed: Promise<CreationFacts | null> =
    chain.config.indexed && db ? indexedCreation(db, address) : Promise.resolve(null);
  // Awaited later (or below); until then a failure must not count as unhandled.
  indexed.catch(() => {});
  const code = await chain.rpc.request<Hex>("eth_getCode", [address, "latest"]);
  const runtimeCode = code.toLowerCase() as Hex;
  if (runtimeCode === "0x" || runtimeCode === ("0x0" as Hex)) {
    return { status: "invalid", message: (await indexed) ? SELF_DESTRUCTED : NOT_A_CONTRACT };
  }
  return { status: "code", runtimeCode, indexed };
}

/** Completes the facts of an address with code: the indexed creation, else the given transaction, else the node. */
export async function loadCreation(
  chain: VerifierChain,
  db: Queryable | null,
  address: string,
  code: Extract<CodeFacts, { status: "code" }>,
  opts: { creationTransactionHash?: string | null; lookup?: CreationLookupOptions } = {},
): Promise<ValidFacts> {
  const { runtimeCode } = code;
  let creation = await code.indexed;
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

/** Everything the verifier needs to know about one address before matching: both stages in a row. */
export async function loadOnchainFacts(
  chain: VerifierChain,
  db: Queryable | null,
  address: string,
  opts: { creationTransactionHash?: string | null; lookup?: CreationLookupOptions } = {},
): Promise<OnchainFacts> {
  const code = await loadCode(chain, db, address);
  return code.status === "invalid" ? code : loadCreation(chain, db, address, code, opts);
}
