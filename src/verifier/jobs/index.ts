/** Verification jobs: asynchronous verification (an id now, the result by polling) persisted in the database. */
export { outcomeOf, outcomeOfError } from "./outcome.js";
export { createJobRunner, type JobRunner, type JobRunnerOptions } from "./runner.js";
export { claimJob, getJob, insertJob, requeueAbandonedJobs } from "./store.js";
export type * from "./types.js";
