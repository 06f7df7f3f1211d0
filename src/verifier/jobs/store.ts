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
  request: VerifyRequest | null;
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

export type Lease = { owner: string; token: string };

/**
 * Claims the oldest pending job (state → running) for `owner`, with a lease of `leaseMs` that the owner renews
 * (`renewLeases`) while the job runs. `skip locked` lets several processes share one PostgreSQL database without
 * claiming the same job; on PGlite (one process, one connection) it is simply a no-op.
 */
export async function claimJob(
  db: Queryable,
  owner: string,
  leaseMs: number,
): Promise<{ job: Job; lease: Lease } | null> {
  const token = randomUUID();
  const [row] = await db.query<Row>(
    `update verification_jobs set state = 'running', started_at = now(), attempts = attempts + 1,
       owner = $1, lease_token = $2, lease_expires_at = now() + $3 * interval '1 millisecond'
     where id = (select id from verification_jobs where state = 'pending'
                 order by created_at limit 1 for update skip locked)
     returning *`,
    [owner, token, leaseMs],
  );
  return row ? { job: toJob(row), lease: { owner, token } } : null;
}

/** Extends the leases of every job `owner` still holds (the heartbeat). Returns how many it holds. */
export async function renewLeases(db: Queryable, owner: string, leaseMs: number): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `update verification_jobs set lease_expires_at = now() + $2 * interval '1 millisecond'
     where state = 'running' and owner = $1 returning id`,
    [owner, leaseMs],
  );
  return rows.length;
}

/**
 * Records the outcome and drops the request (status answers read the outcome; the sources are not needed any
 * more), only while `lease` is still the job's: a process whose lease expired (it stalled, its job
 * was handed to another) writes nothing. Returns whether the outcome was recorded.
 */
export async function finishJob(
  db: Queryable,
  id: string,
  lease: Lease,
  outcome: JobOutcome,
  durationMs: number,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `update verification_jobs set state = 'done', outcome = $3, finished_at = now(), duration_ms = $4,
       lease_expires_at = null, request = null
     where id = $1 and lease_token = $2 and state = 'running' returning id`,
    [id, lease.token, JSON.stringify(outcome), Math.round(durationMs)],
  );
  return rows.length > 0;
}

/** Puts one job back in the queue while `lease` is still its own (its run failed on a transient database error). */
export async function requeueJob(db: Queryable, id: string, lease: Lease): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `update verification_jobs set state = 'pending', started_at = null, owner = null, lease_token = null,
       lease_expires_at = null
     where id = $1 and lease_token = $2 and state = 'running' returning id`,
    [id, lease.token],
  );
  return rows.length > 0;
}

/** Hands the jobs `owner` still runs back to the queue (a shutdown that could not wait for them). */
export async function releaseJobs(db: Queryable, owner: string): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `update verification_jobs set state = 'pending', started_at = null, owner = null, lease_token = null,
       lease_expires_at = null
     where state = 'running' and owner = $1 returning id`,
    [owner],
  );
  return rows.length;
}

/**
 * Puts back jobs whose lease expired (their process died or stalled), run by every worker continuously. Jobs that
 * already failed to finish `maxAttempts` times (they may crash the process) end as internal errors instead of
 * looping forever. Rows from before leases existed (no expiry) count as expired.
 */
export async function reclaimExpiredJobs(db: Queryable, maxAttempts: number): Promise<number> {
  const failed: JobOutcome = {
    result: "failed",
    code: "internal_error",
    message: `Verification was interrupted ${maxAttempts} times; giving up`,
  };
  const expired = "state = 'running' and (lease_expires_at is null or lease_expires_at < now())";
  await db.query(
    `update verification_jobs set state = 'done', outcome = $2, finished_at = now(), lease_token = null,
       lease_expires_at = null, request = null
     where ${expired} and attempts >= $1`,
    [maxAttempts, JSON.stringify(failed)],
  );
  const rows = await db.query<{ id: string }>(
    `update verification_jobs set state = 'pending', started_at = null, owner = null, lease_token = null,
       lease_expires_at = null
     where ${expired} returning id`,
  );
  return rows.length;
}

/** Pending jobs and the age of the oldest, for /metrics (the pending set is small: a partial index holds it). */
export async function queueStats(
  db: Queryable,
): Promise<{ pending: number; running: number; oldestAgeS: number }> {
  const [r] = await db.query<{ pending: number; running: number; age: number | null }>(
    `select (select count(*)::int from verification_jobs where state = 'pending') as pending,
            (select count(*)::int from verification_jobs where state = 'running') as running,
            (select extract(epoch from now() - min(created_at))::float8 from verification_jobs
             where state = 'pending') as age`,
  );
  return { pending: r?.pending ?? 0, running: r?.running ?? 0, oldestAgeS: r?.age ?? 0 };
}
