import type { Queryable } from "../../db/db.js";
import { outcomeOf, outcomeOfError } from "./outcome.js";
import { claimJob, finishJob, getJob, insertJob, requeueAbandonedJobs } from "./store.js";
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
  logger?: Log;
  /** Told of every finished job once its outcome is stored (live updates report it on the socket). */
  onFinished?: (job: Job, outcome: JobOutcome) => void;
};

export type JobRunner = VerificationJobs & {
  /** Re-queues jobs left running by a stopped process, then starts claiming. */
  start(): Promise<void>;
  /** Stops claiming; waits up to `waitMs` for jobs in flight (unfinished ones are re-queued at the next start). */
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

  async function run(job: Job) {
    const t0 = performance.now();
    let outcome: JobOutcome;
    try {
      outcome = outcomeOf(await o.verify(job.request));
    } catch (e) {
      outcome = outcomeOfError(e);
      if (outcome.result === "failed" && outcome.code === "internal_error")
        log.warn({ err: e, job: job.id }, "Verification job failed");
    }
    await finishJob(o.db, job.id, outcome, performance.now() - t0).catch((e: unknown) =>
      log.warn({ err: e, job: job.id }, "Could not record a verification job's outcome"),
    );
    try {
      o.onFinished?.(job, outcome);
    } catch (e) {
      log.warn({ err: e, job: job.id }, "A verification job's listener failed");
    }
  }

  async function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        while (!stopped && active.size < concurrency) {
          const job = await claimJob(o.db);
          if (!job) break;
          const p: Promise<void> = run(job).finally(() => {
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

  return {
    async submit(req) {
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
      const requeued = await requeueAbandonedJobs(o.db, o.maxAttempts ?? 3);
      if (requeued) log.info({ requeued }, "Re-queued verification jobs interrupted by a restart");
      stopped = false;
      timer = setInterval(() => void pump(), o.pollMs ?? 2000);
      timer.unref();
      await pump();
    },
    async stop(waitMs = 10_000) {
      stopped = true;
      clearInterval(timer);
      if (active.size === 0) return;
      let t: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...active]),
        new Promise<void>((r) => {
          t = setTimeout(r, waitMs);
        }),
      ]);
      clearTimeout(t);
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },
  };
}
