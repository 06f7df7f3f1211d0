import { createPublicClient, http, type PublicClient } from "viem";
import { createLimiter, type Limiter } from "../util/limiter.js";
import { httpFetch } from "./http-fetch.js";

export type RpcOptions = {
  url: string;
  batchSize: number;
  timeoutMs: number;
  retries: number;
  /** Requests in flight at once (each may be a JSON-RPC batch). */
  concurrency?: number;
  /** Largest HTTP response read (bytes); a larger answer fails its request. Default: 256 MiB. */
  maxResponseBytes?: number;
  /**
   * Coalesce calls made in the same tick into JSON-RPC batches (default true). viem flushes a batch from a
   * `setTimeout(0)`, which costs every call at least a millisecond: latency-bound callers that make one call at a
   * time (the verifier) turn it off.
   */
  batch?: boolean;
};

/**
 * The chain access of one node: viem's HTTP transport (JSON-RPC batching, timeouts, retries with exponential
 * backoff on transport errors and retryable RPC codes) behind a limiter that bounds concurrent calls.
 */
export type Rpc = {
  readonly url: string;
  readonly client: PublicClient;
  /** A raw JSON-RPC call: result as the node sent it (hex quantities). */
  request<T>(method: string, params: unknown[]): Promise<T>;
  readonly limiter: Limiter;
};

/**
 * Bound of one answer when the caller sets none: a batch of full blocks, receipts or call traces of a busy chain
 * runs to tens of MiB; this only stops a runaway answer from exhausting memory.
 */
const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

export function createRpc(o: RpcOptions): Rpc {
  const client = createPublicClient({
    transport: http(o.url, {
      batch: o.batch === false || o.batchSize <= 1 ? false : { batchSize: o.batchSize, wait: 0 },
      timeout: o.timeoutMs,
      retryCount: o.retries,
      retryDelay: 150,
      fetchFn: httpFetch({ maxBytes: o.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES }),
      // httpFetch bounds the body while reading it; viem's own bound (10 MiB by default) would refuse a large
      // batch of blocks or traces, and re-encodes every answer to measure it.
      maxResponseBodySize: false,
    }),
  });
  // A generous bound: calls made in the same tick still coalesce into one HTTP batch.
  const limiter = createLimiter((o.concurrency ?? 8) * o.batchSize);
  return {
    url: o.url,
    client,
    limiter,
    request<T>(method: string, params: unknown[]) {
      return limiter.run(
        () => client.request({ method, params } as never, { retryCount: o.retries }) as Promise<T>,
      );
    },
  };
}

/** Runs `fn` again after failures with exponential backoff (200 ms, 400 ms, ... capped at 10 s). */
export async function withRetry<T>(
  fn: () => Promise<T>,
  opts: { attempts: number; signal?: AbortSignal; onRetry?: (e: unknown, attempt: number) => void },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (attempt >= opts.attempts || opts.signal?.aborted) throw e;
      opts.onRetry?.(e, attempt);
      await sleep(Math.min(10_000, 200 * 2 ** (attempt - 1)), opts.signal);
    }
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
