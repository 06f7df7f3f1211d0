import type { ContractMatch } from "./types.js";

/**
 * Picks the best of several candidate results (e.g. every contract of one compiler output): full before partial,
 * creation+runtime before creation alone before runtime alone; ties keep input order (callers sort candidates,
 * e.g. by `file:Contract`, to make it deterministic). Returns the index and the result, or null if none matched.
 */
export function selectBestMatch<T extends ContractMatch>(
  results: readonly T[],
): { index: number; result: T } | null {
  let best: { index: number; result: T; score: number } | null = null;
  results.forEach((result, index) => {
    const score = rank(result);
    if (score > 0 && (best === null || score > best.score)) best = { index, result, score };
  });
  if (best === null) return null;
  const { index, result } = best;
  return { index, result };
}

function rank(r: ContractMatch): number {
  const c = r.creationMatch;
  const rt = r.runtimeMatch;
  if (!c.match && !rt.match) return 0;
  const fullness = r.matchType === "full" ? 10 : 0;
  // Which sides carry the full match matters first, then how many sides match at all.
  const fullSides =
    c.type === "full" && rt.type === "full" ? 3 : c.type === "full" ? 2 : rt.type === "full" ? 1 : 0;
  const sides = c.match && rt.match ? 3 : c.match ? 2 : 1;
  return fullness * 100 + fullSides * 10 + sides;
}
