import type { Job } from "../../verifier/jobs/index.js";
import { type Envelope, notOk, ok, TEXT } from "./envelope.js";

const firstLine = (s: string) => s.split("\n").find((l) => l.trim() !== "") ?? s;

/**
 * `checkverifystatus` for a job: pending and failed are status "0" (Etherscan's convention; forge and hardhat read
 * only `result`), a pass "1". A failure says why after the fixed prefix, which clients match with startsWith.
 */
export function jobStatusEnvelope(job: Job | null): Envelope {
  if (!job) return notOk(TEXT.unknownGuid);
  if (job.state !== "done" || !job.outcome) return notOk(TEXT.pending);
  const o = job.outcome;
  if (o.result === "verified") return ok(o.alreadyVerified ? TEXT.alreadyVerifiedStatus : TEXT.pass);
  const reason =
    o.code === "compilation_failed"
      ? `Compilation failed: ${firstLine(o.errors?.[0] ?? o.message)}`
      : firstLine(o.message);
  return notOk(`${TEXT.fail}. ${reason}`);
}
