import { describe, expect, it } from "vitest";
import { failure } from "./reasons.js";
import { nextRetry, type RetryState, recordFailure, requestRefetch } from "./retry-policy.js";

const now = new Date("2025-01-01T00:00:00Z");

describe("nextRetry()", () => {
  it("backs off exponentially from 100 s, capped at 168 h", () => {
    const delays = [1, 2, 3, 4, 12, 13, 14, 15].map((a) => {
      const d = nextRetry(a, "timeout", now);
      return d.giveUp ? "ban" : d.delayMs / 1000;
    });
    expect(delays).toEqual([100, 200, 400, 800, 204_800, 409_600, 604_800, "ban"]);
    expect(nextRetry(20, "http_429", now)).toMatchObject({ giveUp: false, delayMs: 168 * 3600 * 1000 });
    const d = nextRetry(1, "http_5xx", now);
    expect(!d.giveUp && d.retryAt.toISOString()).toBe("2025-01-01T00:01:40.000Z");
  });

  it("gives up after 9 retries for permanent failures, 13 for others, 32767 for 429", () => {
    expect(nextRetry(10, "http_404", now).giveUp).toBe(false);
    expect(nextRetry(11, "http_404", now).giveUp).toBe(true);
    expect(nextRetry(11, "forbidden_address", now).giveUp).toBe(true);
    expect(nextRetry(11, "network", now).giveUp).toBe(false);
    expect(nextRetry(14, "network", now).giveUp).toBe(false);
    expect(nextRetry(15, "network", now).giveUp).toBe(true);
    expect(nextRetry(32768, "http_429", now).giveUp).toBe(false);
    expect(nextRetry(32769, "http_429", now).giveUp).toBe(true);
  });

  it("classifies failures as retryable or permanent", () => {
    expect(failure("http_404", "x").retryable).toBe(false);
    expect(failure("invalid_json", "x").retryable).toBe(false);
    expect(failure("timeout", "x").retryable).toBe(true);
    expect(failure("http_5xx", "x".repeat(400)).message).toHaveLength(255);
  });
});

describe("recordFailure() and requestRefetch()", () => {
  it("counts failures, gives up, and a refetch starts over", () => {
    let s: RetryState = requestRefetch(now);
    for (let i = 0; i < 10; i++) s = recordFailure(s, "http_404", now);
    expect(s).toMatchObject({ attempts: 10, gaveUp: false, lastReason: "http_404" });
    s = recordFailure(s, "http_404", now);
    expect(s).toMatchObject({ attempts: 11, gaveUp: true, retryAt: null });
    expect(requestRefetch(now)).toEqual({ attempts: 0, retryAt: now, gaveUp: false, lastReason: null });
  });
});
