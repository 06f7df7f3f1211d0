import type { Address } from "viem";
import { newestCreationsWithTransaction } from "../../chain-store/creations.js";
import { currentImplementation } from "../../chain-store/proxies.js";
import type { Params } from "../../http/etherscan-params.js";
import type { VerifierApi } from "../../verifier/api.js";
import type { VerifierChain } from "../../verifier/chain-clients.js";
import type { VerificationJobs } from "../../verifier/jobs/index.js";
import { getVerifiedContract } from "../../verifier/store/index.js";
import { chainFor, settledJob, submitVerification } from "../../verifier/submit.js";
import { addressParam, parseAddress, submissionFromParams } from "./parse.js";
import {
  type Envelope,
  jobStatusEnvelope,
  notOk,
  ok,
  type SourceCodeItem,
  sourceCodeItem,
  TEXT,
  unverifiedSourceItem,
} from "./view.js";

/** The verifier as this API uses it: with its job queue. */
export type EtherscanApi = VerifierApi & { jobs: VerificationJobs };

/**
 * `verifysourcecode`: checks what can be checked at once (fields, chain, compiler version, code at the address,
 * an existing full match), then queues a job and answers its GUID.
 */
export async function verifySourceCode(api: EtherscanApi, p: Params): Promise<Envelope> {
  const chain = chainFor(api.chains, p.get("chainid"));
  const { address, request } = submissionFromParams(p, chain.config.id);
  const r = await submitVerification(api, request, { checkCompiler: true, code: "required" });
  switch (r.status) {
    case "no-code":
      // forge retries on exactly this prefix (the deployment may not be mined or indexed yet).
      return notOk(
        r.chainError
          ? `${TEXT.noCode(address)} (the chain did not answer: ${r.chainError})`
          : TEXT.noCode(address),
      );
    case "already-verified":
      return notOk(TEXT.alreadyVerifiedSubmit);
    case "queued":
      return ok(r.job.id);
    case "duplicate":
      if (r.sameRequest) return ok(r.job.id);
      return notOk(
        `A verification of ${address} is already in progress (GUID ${r.job.id}); wait for it with checkverifystatus`,
      );
  }
}

export async function checkVerifyStatus(api: EtherscanApi, p: Params): Promise<Envelope> {
  const guid = p.get("guid");
  if (!guid) return notOk("Missing guid field");
  // Ids are UUIDs; anything else cannot name a job (and must not reach a uuid-typed comparison).
  if (!/^[0-9a-f-]{36}$/i.test(guid)) return notOk(TEXT.unknownGuid);
  return jobStatusEnvelope(await settledJob(api.jobs, guid.toLowerCase(), api.statusWaitMs ?? 5000));
}

export async function getAbi(api: EtherscanApi, p: Params): Promise<Envelope> {
  const address = addressParam(p, "address");
  const chain = chainFor(api.chains, p.get("chainid"));
  const stored = await getVerifiedContract(api.db, chain.config.id, address);
  // Blockscout's RPCView error.json: the text as the message, result null (Etherscan writes "NOTOK" and the text as
  // the result; no client of ours reads either on status "0").
  if (!stored) return { status: "0", message: TEXT.notVerified, result: null };
  return ok(JSON.stringify(stored.abi ?? []));
}

export async function getSourceCode(api: EtherscanApi, p: Params): Promise<Envelope> {
  const address = addressParam(p, "address");
  const chain = chainFor(api.chains, p.get("chainid"));
  return ok([(await verifiedSourceItem(api, chain, address)) ?? unverifiedSourceItem(address)]);
}

/** A verified contract as its `getsourcecode` item; null when the store holds none for the address. */
export async function verifiedSourceItem(
  api: Pick<EtherscanApi, "db">,
  chain: VerifierChain,
  address: string,
): Promise<SourceCodeItem | null> {
  const stored = await getVerifiedContract(api.db, chain.config.id, address);
  if (!stored) return null;
  // The proxy members say what the index holds (its proxies stage reads only the indexed chain).
  const implementation = chain.config.indexed
    ? await currentImplementation(api.db, address as Address)
    : null;
  return sourceCodeItem(address, stored, implementation);
}

/** How many of `contractaddresses` Blockscout answers (the first ones; it ignores the rest). */
const CREATION_ADDRESSES = 10;

/**
 * `getcontractcreation` for the first 10 addresses (Blockscout's limit), from our index of the indexed chain
 * (forge's `--guess-constructor-args` reads it), in Blockscout's shape: the creating transaction's sender, block and
 * time, the factory ("" for a creation by the transaction itself) and the init code. The newest creation wins for
 * a re-created CREATE2 address.
 */
export async function getContractCreation(api: EtherscanApi, p: Params): Promise<Envelope> {
  const list = (p.get("contractaddresses") ?? p.get("address") ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean)
    .slice(0, CREATION_ADDRESSES);
  if (list.length === 0) return notOk("Missing contractaddresses field");
  const addresses = list.map((a) => parseAddress(a, "contractaddresses"));
  const chain = chainFor(api.chains, p.get("chainid"));
  if (!chain.config.indexed) return notOk(TEXT.noData, "No data found");
  const byAddress = await newestCreationsWithTransaction(api.db, addresses);
  if (byAddress.size === 0) return notOk(TEXT.noData, "No data found");
  return ok(
    addresses
      .filter((a) => byAddress.has(a))
      .map((a) => {
        const r = byAddress.get(a)!;
        return {
          contractAddress: a,
          contractCreator: r.sender.toLowerCase(),
          txHash: r.transactionHash,
          blockNumber: String(r.blockNumber),
          timestamp: String(r.timestamp),
          contractFactory: r.kind === "transaction" ? "" : r.creator.toLowerCase(),
          creationBytecode: r.initCode,
        };
      }),
  );
}
