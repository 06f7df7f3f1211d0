import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Queryable } from "../../db/db.js";
import { isConnectionLoss } from "../../db/failures.js";
import { InvalidInputError } from "../../errors/base.js";
import { outcomeOf, outcomeOfError } from "./outcome.js";
import {
  claimJob,
  finishJob,
  getJob,
  insertJob,
  type Lease,
  reclaimExpiredJobs,
  releaseJobs,
  renewLeases,
  requeueJob,
} from "./store.js";
import type { Job, JobOutcome, SubmitResult, VerificationJobs, VerifyRunner } from "./types.js";

type Log = { info(o: unknown, m?: string): void; warn(o: unknown, m?: string): void };

export type JobRunnerOptions = {
  db: Queryable;
  /** The verify service bound to chains, compilers and the database (it runs compiles in its worker pool). */
  verify: VerifyRunner;
  /** Jobs verified at once; compiles beyond the compiler pool's size just queue there. */
  concurrency?: number;
  /** How often to look for jobs queued by another process sharing the database. */
  pollMs?: number;
  /** A job interrupted this many times (a crash each time?) fails instead of being retried again. */
  maxAttempts?: number;
  /** Lease of a claimed job, renewed every third of it while the job runs; after it, another process takes over. */
  leaseMs?: number;
  /** This process's name in `verification_jobs.owner` (default: host:pid:uuid). */
  owner?: string;
  logger?: Log;
  /** Told of every finished job once its outcome is stored (metrics; live updates report it on the socket). */
  onFinished?: (job: Job, outcome: JobOutcome, durationMs: number) => void;
};

export type JobRunner = VerificationJobs & {
  /** Re-queues jobs whose lease expired (their process died), then starts claiming; repeats both every poll. */
  start(): Promise<void>;
  /** Stops claiming; waits up to `waitMs` for jobs in flight, then hands the unfinished ones back to the queue. */
  stop(waitMs?: number): Promise<void>;
  /** Resolves once no job is pending or running in this process (tests). */
  idle(): Promise<void>;
};

const silent: Log = { info() {}, warn() {} };

/**
 * The verification job queue: jobs live in `verification_jobs` (migration 005), so a job outlives the process
 * that accepted it. Submitting wakes the runner at once; a timer covers jobs queued elsewhere.
 */
export function createJobRunner(o: JobRunnerOptions): JobRunner {
  const concurrency = Math.max(1, o.concurrency ?? 2);
  const log = o.logger ?? silent;
  // host:pid:uuid, so an operator (or a test) can tell which process holds a job.
  const owner = o.owner ?? `${hostname()}:${process.pid}:${randomUUID()}`;
  const leaseMs = o.leaseMs ?? 60_000;
  let heartbeat: NodeJS.Timeout | undefined;
  const active = new Set<Promise<void>>();
  let stopped = true;
  let pumping = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let idleWaiters: Array<() => void> = [];

  const settleIdle = () => {
    if (active.size > 0 || pumping) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  };

  async function run(job: Job, lease: Lease) {
    const t0 = performance.now();
    let outcome: JobOutcome;
    try {
      if (!job.request) throw new Error("the job's request is gone (it finished before)");
      outcome = outcomeOf(await o.verify(job.request));
    } catch (e) {
      if (isConnectionLoss(e)) {
        // The database connection failed under the job, not the verification: run it again rather than record a failure.
        // When the requeue fails too, the lease runs out and another pass reclaims the job.
        log.warn({ err: e, job: job.id }, "Verification job hit a database failure; queued again");
        await requeueJob(o.db, job.id, lease).catch(() => {});
        return;
      }
      outcome = outcomeOfError(e);
      if (outcome.result === "failed" && outcome.code === "internal_error")
        log.warn({ err: e, job: job.id }, "Verification job failed");
    }
    const ms = performance.now() - t0;
    const recorded = await finishJob(o.db, job.id, lease, outcome, ms).catch((e: unknown) => {
      log.warn({ err: e, job: job.id }, "Could not record a verification job's outcome");
      return false;
    });
    if (!recorded) {
      log.warn({ job: job.id }, "Verification job's lease was lost (taken over); its outcome is discarded");
      return;
    }
    try {
      o.onFinished?.(job, outcome, ms);
    } catch (e) {
      log.warn({ err: e, job: job.id }, "A verification job's listener failed");
    }
  }

  let pumped: Promise<void> = Promise.resolve();
  function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return pumped;
    }
    pumped = pumpOnce();
    return pumped;
  }
  async function pumpOnce(): Promise<void> {
    pumping = true;
    try {
      do {
        again = false;
        while (!stopped && active.size < concurrency) {
          const claimed = await claimJob(o.db, owner, leaseMs);
          if (!claimed) break;
          const p: Promise<void> = run(claimed.job, claimed.lease).finally(() => {
            active.delete(p);
            void pump();
          });
          active.add(p);
        }
      } while (again && !stopped);
    } catch (e) {
      log.warn({ err: e }, "Could not claim a verification job");
    } finally {
      pumping = false;
      settleIdle();
    }
  }

  async function reclaim(): Promise<void> {
    if (stopped) return;
    try {
      const n = await reclaimExpiredJobs(o.db, o.maxAttempts ?? 3);
      if (n) log.info({ requeued: n }, "Re-queued verification jobs whose process stopped renewing them");
    } catch (e) {
      log.warn({ err: e }, "Could not reclaim expired verification jobs");
    }
  }

  return {
    async submit(req) {
      // PostgreSQL's jsonb cannot hold U+0000: a request carrying one anywhere (a name, a version, a setting) is
      // refused as bad input rather than failing the insert.
      if (holdsNul(req))
        throw new InvalidInputError("The request contains a NUL character (U+0000), which cannot be stored");
      const c = req.contracts[0];
      const address = c.address.toLowerCase().replace(/^(0x)?/, "0x");
      const r = await insertJob(o.db, { chainId: String(c.chainId), address }, req);
      if (r.inserted) void pump();
      const result: SubmitResult = r.inserted
        ? { status: "queued", job: r.job }
        : { status: "duplicate", job: r.job, sameRequest: r.sameRequest };
      return result;
    },
    get: (id) => getJob(o.db, id),
    async start() {
      stopped = false;
      await reclaim();
      timer = setInterval(() => void reclaim().then(pump), o.pollMs ?? 2000);
      timer.unref();
      heartbeat = setInterval(() => {
        if (active.size === 0) return;
        renewLeases(o.db, owner, leaseMs).catch((e: unknown) =>
          log.warn({ err: e }, "Could not renew verification job leases"),
        );
      }, leaseMs / 3);
      heartbeat.unref();
      await pump();
    },
    async stop(waitMs = 10_000) {
      stopped = true;
      clearInterval(timer);
      // A claim in flight lands in `active` before we look.
      await pumped.catch(() => {});
      if (active.size === 0) {
        clearInterval(heartbeat);
        return;
      }
      let t: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...active]),
        new Promise<void>((r) => {
          t = setTimeout(r, waitMs);
        }),
      ]);
      clearTimeout(t);
      clearInterval(heartbeat);
      if (active.size > 0) {
        const released = await releaseJobs(o.db, owner).catch(() => 0);
        if (released) log.info({ released }, "Handed unfinished verification jobs back to the queue");
      }
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },
  };
}

/** Whether any string (key or value) in `value` holds U+0000; iterative, so deep inputs cannot overflow the stack. */
export function holdsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (v.includes("\u0000")) return true;
    } else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes("\u0000")) return true;
        stack.push(x);
      }
    }
  }
  return false;
}
