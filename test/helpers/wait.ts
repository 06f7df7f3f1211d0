/**
 * Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs` with `what` and
 * the last error. A condition, not a fixed sleep: it returns as soon as the thing happened, and the generous
 * deadline only matters on a machine so busy that it would otherwise fail anyway.
 */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 120_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ""}`,
      );
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
