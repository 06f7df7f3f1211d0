import { createHash, randomUUID } from "node:crypto";
import { fromBytea, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { VerifyRequest } from "../service/index.js";
import type { Job, JobOutcome, JobState } from "./types.js";

type Row = {
  id: string;
  chain_id: number | string;
  address: Uint8Array;
  state: JobState;
  request: VerifyRequest;
  request_hash: string;
  outcome: JobOutcome | null;
  attempts: number;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  duration_ms: number | null;
};

const toJob = (r: Row): Job => ({
  id: r.id,
  chainId: String(r.chain_id),
  address: fromBytea(r.address),
  state: r.state,
  request: r.request,
  outcome: r.outcome,
  attempts: r.attempts,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  durationMs: r.duration_ms,
});

export const requestHash = (req: VerifyRequest) =>
  createHash("sha256").update(JSON.stringify(req)).digest("hex");

export type InsertResult = { inserted: true; job: Job } | { inserted: false; job: Job; sameRequest: boolean };

/**
 * Queues a job unless one for the same contract is pending or running (the partial unique index decides, so two
 * concurrent submissions cannot both win). Returns the active job in that case.
 */
export async function insertJob(
  db: Queryable,
  target: { chainId: string; address: string },
  req: VerifyRequest,
): Promise<InsertResult> {
  const hash = requestHash(req);
  for (let i = 0; i < 3; i++) {
    const [row] = await db.query<Row>(
      `insert into verification_jobs (id, chain_id, address, state, request, request_hash)
       values ($1, $2, $3, 'pending', $4, $5)
       on conflict (chain_id, address) where state in ('pending', 'running') do nothing
       returning *`,
      [randomUUID(), target.chainId, toBytea(target.address), JSON.stringify(req), hash],
    );
    if (row) return { inserted: true, job: toJob(row) };
    const [active] = await db.query<Row>(
      `select * from verification_jobs
       where chain_id = $1 and address = $2 and state in ('pending', 'running')`,
      [target.chainId, toBytea(target.address)],
    );
    // The active job may have finished between the two statements: then try again.
    if (active) return { inserted: false, job: toJob(active), sameRequest: active.request_hash === hash };
  }
  throw new Error("verification_jobs: could not queue the job (the contract's active job kept changing)");
}

export async function getJob(db: Queryable, id: string): Promise<Job | null> {
  const [row] = await db.query<Row>("select * from verification_jobs where id = $1", [id]);
  return row ? toJob(row) : null;
}

/**
 * Claims the oldest pending job (state → running). `skip locked` lets several processes share one PostgreSQL
 * database without claiming the same job; on PGlite (one process, one connection) it is simply a no-op.
 */
export async function claimJob(db: Queryable): Promise<Job | null> {
  const [row] = await db.query<Row>(
    `update verification_jobs set state = 'running', started_at = now(), attempts = attempts + 1
     where id = (select id from verification_jobs where state = 'pending'
                 order by created_at limit 1 for update skip locked)
     returning *`,
  );
  return row ? toJob(row) : null;
}

export async function finishJob(db: Queryable, id: string, outcome: JobOutcome, durationMs: number) {
  await db.query(
    `update verification_jobs set state = 'done', outcome = $2, finished_at = now(), duration_ms = $3
     where id = $1`,
    [id, JSON.stringify(outcome), Math.round(durationMs)],
  );
}

/**
 * Puts back jobs a stopped process left running (a restart mid-verification). Jobs that already failed to finish
 * `maxAttempts` times (they may crash the process) end as internal errors instead of looping forever.
 */
export async function requeueAbandonedJobs(db: Queryable, maxAttempts: number): Promise<number> {
  const failed: JobOutcome = {
    result: "failed",
    code: "internal_error",
    message: `Verification was interrupted ${maxAttempts} times; giving up`,
  };
  await db.query(
    `update verification_jobs set state = 'done', outcome = $2, finished_at = now()
     where state = 'running' and attempts >= $1`,
    [maxAttempts, JSON.stringify(failed)],
  );
  const rows = await db.query<{ id: string }>(
    "update verification_jobs set state = 'pending', started_at = null where state = 'running' returning id",
  );
  return rows.length;
}
