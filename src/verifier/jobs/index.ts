/** Verification jobs: asynchronous verification (an id now, the result by polling) persisted in the database. */
export { outcomeOf, outcomeOfError } from "./outcome.js";
export { createJobRunner, type JobRunner, type JobRunnerOptions } from "./runner.js";
export {
  claimJob,
  finishJob,
  getJob,
  insertJob,
  type Lease,
  queueStats,
  reclaimExpiredJobs,
  releaseJobs,
  renewLeases,
} from "./store.js";
export type * from "./types.js";
