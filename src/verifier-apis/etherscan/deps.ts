import type { Queryable } from "../../db/db.js";
import { InvalidInputError } from "../../errors/base.js";
import type { VerifierChain } from "../../verifier/chain-clients.js";
import type { VerificationJobs } from "../../verifier/jobs/index.js";
import type { VerifierCompilers } from "../../verifier/service/index.js";

/** What the Etherscan- and Sourcify-compatible APIs need from the service (src/service.ts wires them). */
export type VerificationApiDeps = {
  /** The index (contract creations) and the verified-contract store. */
  db: Queryable;
  /** Verifier chains by decimal id. */
  chains: ReadonlyMap<string, VerifierChain>;
  compilers: Pick<VerifierCompilers, "resolveVersion" | "settled">;
  jobs: VerificationJobs;
  /**
   * How long `checkverifystatus` waits for an unfinished job before answering "Pending in queue" (default 5 s).
   * forge sleeps 15 s after a pending answer whatever its --delay, so a short wait saves its users that pause.
   */
  statusWaitMs?: number;
};

export const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/**
 * The chain a request is about: `chainid` when given (Etherscan v2 style), else the indexed chain, else the only
 * configured chain. Throws InvalidInputError naming the supported ids otherwise.
 */
export function chainFor(
  deps: Pick<VerificationApiDeps, "chains">,
  chainId: string | undefined,
): VerifierChain {
  if (chainId !== undefined && chainId !== "") {
    const c = deps.chains.get(chainId.trim());
    if (!c) throw new InvalidInputError(`Unsupported chainid ${chainId} (supported: ${supportedIds(deps)})`);
    return c;
  }
  const all = [...deps.chains.values()];
  const c = all.find((x) => x.config.indexed) ?? (all.length === 1 ? all[0] : undefined);
  if (!c) throw new InvalidInputError(`Missing chainid (supported: ${supportedIds(deps)})`);
  return c;
}

const supportedIds = (deps: Pick<VerificationApiDeps, "chains">) =>
  [...deps.chains.keys()].join(", ") || "none";
