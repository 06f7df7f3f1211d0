import { type FailureReason, type RetryClass, retryClassOf } from "./reasons.js";

/**
 * Backoff and give-up as upstream's `Instance.determine_refetch_after_and_is_banned` (spec
 * blockscout-explorer-api.md §5 NFT instances, Retries): refetch after `coefficient · base^retries` seconds, capped
 * at `maxIntervalSeconds` (168 h); banned once the retries exceed 9 for permanent errors, 13 for other errors and
 * 32767 for HTTP 429.
 */
export type RetryPolicy = {
  coefficientSeconds: number;
  base: number;
  maxIntervalSeconds: number;
  maxRetriesBeforeGiveUp: Record<RetryClass, number>;
};

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  coefficientSeconds: 100,
  base: 2,
  maxIntervalSeconds: 168 * 3600,
  maxRetriesBeforeGiveUp: { permanent: 9, transient: 13, rate_limited: 32767 },
});

export type RetryDecision =
  | { giveUp: true; attempts: number }
  | { giveUp: false; attempts: number; delayMs: number; retryAt: Date };

/**
 * Decides what happens after a failed fetch. Pure.
 * @param attempts consecutive failed attempts for this token, counting the one just made (1 after the first failure).
 *   Upstream counts retries, i.e. failures after the first: `retries = attempts - 1`.
 * @param reason the reason of the latest failure; it alone picks the give-up threshold, as upstream.
 */
export function nextRetry(
  attempts: number,
  reason: FailureReason,
  now: Date,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): RetryDecision {
  const retries = Math.max(0, Math.floor(attempts) - 1);
  if (retries > policy.maxRetriesBeforeGiveUp[retryClassOf(reason)]) return { giveUp: true, attempts };
  const seconds = Math.min(policy.coefficientSeconds * policy.base ** retries, policy.maxIntervalSeconds);
  const delayMs = Math.floor(seconds * 1000);
  return { giveUp: false, attempts, delayMs, retryAt: new Date(now.getTime() + delayMs) };
}

/** Retry bookkeeping a store keeps per token instance. */
export type RetryState = {
  attempts: number;
  retryAt: Date | null;
  gaveUp: boolean;
  lastReason: FailureReason | null;
};

/** State after a failure: applies `nextRetry`. */
export function recordFailure(
  state: RetryState,
  reason: FailureReason,
  now: Date,
  policy?: RetryPolicy,
): RetryState {
  const decision = nextRetry(state.attempts + 1, reason, now, policy);
  return decision.giveUp
    ? { attempts: decision.attempts, retryAt: null, gaveUp: true, lastReason: reason }
    : { attempts: decision.attempts, retryAt: decision.retryAt, gaveUp: false, lastReason: reason };
}

/** A requested refetch clears the give-up and the backoff: the token is due now and counts from zero again. */
export function requestRefetch(now: Date): RetryState {
  return { attempts: 0, retryAt: now, gaveUp: false, lastReason: null };
}
