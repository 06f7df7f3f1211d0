import type { Static } from "@sinclair/typebox";
import { newestCreation } from "../../chain-store/creations.js";
import type { ChainConfig } from "../../config/chains.js";
import type { Queryable } from "../../db/db.js";
import { InvalidInputError } from "../../errors/base.js";
import type { Hex } from "../../verifier/matching/index.js";
import type { ContractRef, OnchainFacts } from "../../verifier/service/index.js";
import type { BytecodeType, Metadata } from "./schemas.js";

type VerifyFields = {
  bytecode: string;
  bytecodeType: Static<typeof BytecodeType>;
  metadata?: Static<typeof Metadata> | null | undefined;
};

const hex = (s: string | null | undefined): Hex | null =>
  s ? ((s.startsWith("0x") ? s : `0x${s}`).toLowerCase() as Hex) : null;

/** The chain a request names, else the indexed chain (the one the Blockscout in front of us explores). */
export function chainIdFor(chains: readonly ChainConfig[], requested: string | number | null | undefined) {
  if (requested !== null && requested !== undefined && String(requested).trim() !== "")
    return String(requested).trim();
  const c = chains.find((x) => x.indexed) ?? (chains.length === 1 ? chains[0] : undefined);
  if (!c) throw new InvalidInputError("metadata.chainId is required (several chains are configured)");
  return c.id;
}

/**
 * The explorer's metadata, as facts the verifier may use without asking the node, when our own index confirms
 * them: the newest creation of the address has the same runtime code (and init code, when sent). Unconfirmed
 * metadata is never trusted: anyone can post to this API, and a stored verification is public.
 */
async function confirmedByIndex(
  db: Queryable,
  address: Hex,
  runtimeCode: Hex | null,
  creationCode: Hex | null,
): Promise<OnchainFacts | undefined> {
  if (!runtimeCode) return undefined;
  const c = await newestCreation(db, address);
  if (!c?.runtimeCode || c.runtimeCode !== runtimeCode) return undefined;
  const init = c.initCode;
  if (creationCode && creationCode !== init) return undefined;
  return {
    status: "valid",
    runtimeCode,
    creation: {
      transactionHash: c.transactionHash,
      creator: c.creator,
      blockNumber: c.blockNumber,
      creationInput: init,
    },
  };
}

/**
 * The contract a verify request is about, from its `metadata` (Lookout keeps verified sources per contract, so
 * the address is required). The bytecode sent stands for the creation input or runtime code the metadata omits.
 */
export async function contractRefFor(
  ctx: { db: Queryable; chains: readonly ChainConfig[] },
  body: VerifyFields,
): Promise<ContractRef> {
  const meta = body.metadata ?? {};
  const address = hex(meta.contractAddress);
  if (!address) {
    throw new InvalidInputError(
      "metadata.contractAddress is required: verified sources are stored per contract",
      { field: "metadata.contractAddress" },
    );
  }
  const chainId = chainIdFor(ctx.chains, meta.chainId);
  const chain = ctx.chains.find((c) => c.id === chainId);
  const runtime =
    hex(meta.runtimeCode) ?? (body.bytecodeType === "DEPLOYED_BYTECODE" ? hex(body.bytecode) : null);
  const creation =
    hex(meta.creationCode) ?? (body.bytecodeType === "CREATION_INPUT" ? hex(body.bytecode) : null);
  const knownFacts =
    chain?.indexed && /^0x[0-9a-f]{40}$/.test(address)
      ? await confirmedByIndex(ctx.db, address, runtime, creation)
      : undefined;
  return {
    chainId,
    address,
    ...(meta.transactionHash ? { creationTransactionHash: hex(meta.transactionHash) } : {}),
    ...(knownFacts ? { knownFacts } : {}),
  };
}
