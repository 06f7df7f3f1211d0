import type { Static } from "@sinclair/typebox";
import { newestCreation } from "../../chain-store/creations.js";
import type { Queryable } from "../../db/db.js";
import { InvalidInputError } from "../../errors/base.js";
import type { VerifierApi } from "../../verifier/api.js";
import type { Hex } from "../../verifier/matching/index.js";
import {
  forContracts,
  inputFromSourcifyFiles,
  multiPartRequest,
  parseStandardJsonInput,
  type RequestBody,
  standardJsonRequest,
} from "../../verifier/requests/index.js";
import type { ContractRef, OnchainFacts } from "../../verifier/service/index.js";
import { pickChain } from "../../verifier/submit.js";
import type {
  BytecodeType,
  Metadata,
  SolidityMultiPartBody,
  SourcifyVerifyBody,
  StandardJsonBody,
  VyperMultiPartBody,
} from "./schemas.js";

type VerifyFields = {
  bytecode: string;
  bytecodeType: Static<typeof BytecodeType>;
  metadata?: Static<typeof Metadata> | null | undefined;
};

export type Chains = VerifierApi["chains"];

export const hex = (s: string) => (s.startsWith("0x") ? s : `0x${s}`).toLowerCase() as Hex;
const hexOrNull = (s: string | null | undefined): Hex | null => (s ? hex(s) : null);

/** The chain a request names, else the indexed chain (the one the Blockscout in front of us explores). */
export function chainIdFor(chains: Chains, requested: string | number | null | undefined): string {
  const picked = pickChain(chains, requested);
  if (!picked) throw new InvalidInputError("metadata.chainId is required (several chains are configured)");
  return picked.id;
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
  ctx: { db: Queryable; chains: Chains },
  body: VerifyFields,
): Promise<ContractRef> {
  const meta = body.metadata ?? {};
  const address = hexOrNull(meta.contractAddress);
  if (!address) {
    throw new InvalidInputError(
      "metadata.contractAddress is required: verified sources are stored per contract",
      { field: "metadata.contractAddress" },
    );
  }
  const chainId = chainIdFor(ctx.chains, meta.chainId);
  const chain = ctx.chains.get(chainId)?.config;
  const runtime =
    hexOrNull(meta.runtimeCode) ?? (body.bytecodeType === "DEPLOYED_BYTECODE" ? hex(body.bytecode) : null);
  const creation =
    hexOrNull(meta.creationCode) ?? (body.bytecodeType === "CREATION_INPUT" ? hex(body.bytecode) : null);
  const knownFacts =
    chain?.indexed && /^0x[0-9a-f]{40}$/.test(address)
      ? await confirmedByIndex(ctx.db, address, runtime, creation)
      : undefined;
  return {
    chainId,
    address,
    ...(meta.transactionHash ? { creationTransactionHash: hexOrNull(meta.transactionHash) } : {}),
    ...(knownFacts ? { knownFacts } : {}),
  };
}

/** The request body of each verify route (its contract comes from `contractRefFor`). */
export const solidityMultiPartBody = (b: Static<typeof SolidityMultiPartBody>): RequestBody =>
  // `libraries` (proto-reserved, still sent by Blockscout) is ignored as upstream does: the matching engine finds
  // linked library addresses in the code itself.
  multiPartRequest("Solidity", b.compilerVersion, {
    sourceFiles: b.sourceFiles,
    evmVersion: b.evmVersion ?? null,
    optimizationRuns: b.optimizationRuns ?? null,
  });

export const vyperMultiPartBody = (b: Static<typeof VyperMultiPartBody>): RequestBody =>
  multiPartRequest("Vyper", b.compilerVersion, {
    sourceFiles: b.sourceFiles,
    interfaces: b.interfaces ?? null,
    evmVersion: b.evmVersion ?? null,
  });

export const standardJsonBody = (language: "Solidity" | "Vyper", b: Static<typeof StandardJsonBody>) =>
  standardJsonRequest(language, b.compilerVersion, parseStandardJsonInput(b.input));

/** Sourcify-style files: the request, or why none can be built (a FAILURE answer, as upstream). */
export function sourcifyFilesRequest(b: Static<typeof SourcifyVerifyBody>) {
  const built = inputFromSourcifyFiles(b.files, b.chosenContract);
  if (!built.ok) return built;
  return {
    ok: true as const,
    request: forContracts({ language: built.language, compiler: built.compiler, input: built.input }, [
      { chainId: b.chain, address: b.address },
    ]),
  };
}
