import type { ChainConfig } from "../config/chains.js";
import type { Queryable } from "../db/db.js";
import type { MultipartLimits } from "../http/multipart-body.js";
import type { VerifierChain } from "./chain-clients.js";
import type { CompilerVersionInfo } from "./compilers/index.js";
import type { VerificationJobs } from "./jobs/index.js";
import type { VerifierCompilers, VerifyRequest, VerifyResponse } from "./service/index.js";

/** A 0x-prefixed 20-byte hex address, either case. */
export const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/** The compilers as the front doors see them: the version lists, and the version check of a submission. */
export type VerifierApiCompilers = Pick<VerifierCompilers, "resolveVersion" | "settled"> & {
  listSolidity(): CompilerVersionInfo[];
  listVyper(): CompilerVersionInfo[];
};

/**
 * The verifier as every front door (the dialects in src/verifier-apis) uses it; built once by src/app. Synchronous
 * dialects call `verify`, asynchronous ones queue `jobs` through `submitVerification` (submit.ts).
 */
export type VerifierApi = {
  /** The verified-contract store, the job queue and the index (contract creations). */
  db: Queryable;
  /** Verifier chains by decimal id; read per request (the indexed chain may join after start). */
  chains: ReadonlyMap<string, VerifierChain>;
  compilers: VerifierApiCompilers;
  /** The verify service bound to its dependencies; without it no synchronous verification is served. */
  verify?: (req: VerifyRequest) => Promise<VerifyResponse>;
  /** The verification job queue; without it no asynchronous verification is served. */
  jobs?: VerificationJobs;
  /**
   * How long Etherscan's `checkverifystatus` waits for an unfinished job before answering "Pending in queue"
   * (default 5 s). forge sleeps 15 s after a pending answer whatever its --delay, so a short wait saves that pause.
   */
  statusWaitMs?: number;
  /**
   * How long Blockscout's synchronous publish actions (`verify`, `verify_vyper_contract`, `verify_via_sourcify`,
   * `POST /api/v1/verified_smart_contracts`) wait for their job before answering its GUID (default 120 s).
   */
  publishWaitMs?: number;
  /** Bounds of a multipart verify-form submission (defaults: 5 MB a file, 100 files, 20 MB in all). */
  formLimits?: MultipartLimits;
};

/** The configured chains, in configuration order. */
export const chainConfigs = (api: Pick<VerifierApi, "chains">): ChainConfig[] =>
  [...api.chains.values()].map((c) => c.config);
