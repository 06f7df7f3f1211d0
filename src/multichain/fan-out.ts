import type { MultichainChain } from "./chains.js";

/** How a question is put to every chain: at most `concurrency` chains at once, each given `timeoutMs`. */
export type FanOutLimits = { concurrency: number; timeoutMs: number };

export const DEFAULT_FAN_OUT: FanOutLimits = { concurrency: 8, timeoutMs: 5_000 };

/** What the chains answered, in the order they were given, and the ids of those that failed or were too slow. */
type FanOutResult<T> = { answers: Array<{ chain: MultichainChain; value: T }>; missing: string[] };

class ChainTimeout extends Error {
  override name = "ChainTimeout";
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChainTimeout(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * Asks every chain the same question, a bounded number at a time, each within the time limit: a chain that fails
 * or does not answer in time is left out and named in `missing` (the others' answers stand), as the aggregator
 * answers with the chains it has data for. A slow chain's query keeps its connection until it ends (its database
 * statement timeout bounds it); only its answer is dropped.
 */
export async function overChains<T>(
  chains: readonly MultichainChain[],
  ask: (chain: MultichainChain) => Promise<T>,
  limits: FanOutLimits,
  onMissing?: (chain: MultichainChain, err: unknown) => void,
): Promise<FanOutResult<T>> {
  const results: Array<{ ok: true; value: T } | { ok: false } | undefined> = new Array(chains.length);
  let next = 0;
  const worker = async () => {
    while (next < chains.length) {
      const i = next++;
      const chain = chains[i]!;
      try {
        results[i] = { ok: true, value: await withTimeout(ask(chain), limits.timeoutMs) };
      } catch (err) {
        results[i] = { ok: false };
        onMissing?.(chain, err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limits.concurrency, chains.length)) }, worker));
  const answers: FanOutResult<T>["answers"] = [];
  const missing: string[] = [];
  chains.forEach((chain, i) => {
    const r = results[i];
    if (r?.ok) answers.push({ chain, value: r.value });
    else missing.push(chain.id);
  });
  return { answers, missing };
}
