import { newestCreations } from "../../chain-store/creations.js";
import { checkRequestLimits } from "../../verifier/service/index.js";
import { getVerifiedContract } from "../../verifier/store/index.js";
import { chainFor, type VerificationApiDeps } from "./deps.js";
import { type Envelope, notOk, ok, TEXT } from "./envelope.js";
import type { Params } from "./params.js";
import { sourceCodeItem, unverifiedSourceItem } from "./source-view.js";
import { jobStatusEnvelope } from "./status-view.js";
import { addressParam, parseAddress, submissionFromParams } from "./verify-request.js";

/**
 * `verifysourcecode`: checks what can be checked at once (fields, chain, compiler version, code at the address,
 * an existing full match), then queues a job and answers its GUID.
 */
export async function verifySourceCode(deps: VerificationApiDeps, p: Params): Promise<Envelope> {
  const chain = chainFor(deps, p.get("chainid"));
  const { address, request } = submissionFromParams(p, chain.config.id);
  checkRequestLimits(request);
  await deps.compilers.settled?.();
  deps.compilers.resolveVersion(request.language, request.compiler);

  // No code yet: forge retries on exactly this prefix (the deployment may not be mined or indexed yet).
  const code = await chain.rpc
    .request<string>("eth_getCode", [address, "latest"])
    .catch((e: unknown) => ({ error: e instanceof Error ? e.message.split("\n")[0] : String(e) }));
  if (typeof code !== "string")
    return notOk(`${TEXT.noCode(address)} (the chain did not answer: ${code.error})`);
  if (code === "0x" || code === "0x0") return notOk(TEXT.noCode(address));

  const stored = await getVerifiedContract(deps.db, chain.config.id, address);
  if (stored?.matchType === "full" && !stored.automatic) return notOk(TEXT.alreadyVerifiedSubmit);

  const submitted = await deps.jobs.submit(request);
  if (submitted.status === "queued" || submitted.sameRequest) return ok(submitted.job.id);
  return notOk(
    `A verification of ${address} is already in progress (GUID ${submitted.job.id}); wait for it with checkverifystatus`,
  );
}

export async function checkVerifyStatus(deps: VerificationApiDeps, p: Params): Promise<Envelope> {
  const guid = p.get("guid");
  if (!guid) return notOk("Missing guid field");
  // Ids are UUIDs; anything else cannot name a job (and must not reach a uuid-typed comparison).
  if (!/^[0-9a-f-]{36}$/i.test(guid)) return notOk(TEXT.unknownGuid);
  return jobStatusEnvelope(await settledJob(deps, guid.toLowerCase()));
}

/** The job once done, or as it is after `statusWaitMs` (polled in the table, so any process may run it). */
async function settledJob(deps: VerificationApiDeps, id: string) {
  const deadline = Date.now() + (deps.statusWaitMs ?? 5000);
  for (;;) {
    const job = await deps.jobs.get(id);
    if (!job || job.state === "done" || Date.now() >= deadline) return job;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function getAbi(deps: VerificationApiDeps, p: Params): Promise<Envelope> {
  const address = addressParam(p, "address");
  const chain = chainFor(deps, p.get("chainid"));
  const stored = await getVerifiedContract(deps.db, chain.config.id, address);
  if (!stored) return notOk(TEXT.notVerified);
  return ok(JSON.stringify(stored.abi ?? []));
}

export async function getSourceCode(deps: VerificationApiDeps, p: Params): Promise<Envelope> {
  const address = addressParam(p, "address");
  const chain = chainFor(deps, p.get("chainid"));
  const stored = await getVerifiedContract(deps.db, chain.config.id, address);
  return ok([stored ? sourceCodeItem(stored) : unverifiedSourceItem()]);
}

/**
 * `getcontractcreation` for up to 5 addresses (Etherscan's limit), from our index of the indexed chain (forge's
 * `--guess-constructor-args` reads it). The newest creation wins for a re-created CREATE2 address.
 */
export async function getContractCreation(deps: VerificationApiDeps, p: Params): Promise<Envelope> {
  const list = (p.get("contractaddresses") ?? p.get("address") ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  if (list.length === 0) return notOk("Missing contractaddresses field");
  if (list.length > 5) return notOk("Too many contractaddresses (at most 5)");
  const addresses = list.map((a) => parseAddress(a, "contractaddresses"));
  const chain = chainFor(deps, p.get("chainid"));
  if (!chain.config.indexed) return notOk(TEXT.noData, "No data found");
  const byAddress = await newestCreations(deps.db, addresses);
  if (byAddress.size === 0) return notOk(TEXT.noData, "No data found");
  return ok(
    addresses
      .filter((a) => byAddress.has(a))
      .map((a) => {
        const r = byAddress.get(a)!;
        return {
          contractAddress: a,
          contractCreator: r.creator,
          txHash: r.transactionHash,
          blockNumber: String(r.blockNumber),
        };
      }),
  );
}
