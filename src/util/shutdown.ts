import type { Logger } from "./logger.js";

/** The whole shutdown, every phase included (start-up, catch-up, following, compiling), ends within this. */
export const SHUTDOWN_DEADLINE_MS = 8_000;

/** How long a stop waits for the indexer's step in flight (a fetch from a frozen node never ends by itself). */
export const INDEXER_STOP_WAIT_MS = 5_000;

const after = (ms: number) => new Promise<"late">((resolve) => setTimeout(() => resolve("late"), ms).unref());

/** Waits for `p` at most `ms`; says whether it finished in time. */
export async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  return (
    (await Promise.race([
      p.then(
        () => "done" as const,
        () => "done" as const,
      ),
      after(ms),
    ])) === "done"
  );
}

/**
 * SIGINT/SIGTERM handling from the very start of a command, so a signal during start-up stops it too. `received`
 * resolves with the first signal; `finish` runs the stop, but resolves with exit code 0 at the deadline however far
 * it got: what is committed stays, a transaction still open is rolled back by the database when the process ends.
 */
export function shutdownOnSignals(logger: Logger) {
  let signal: (s: string) => void = () => {};
  const received = new Promise<string>((resolve) => {
    signal = resolve;
  });
  const on = (s: NodeJS.Signals) => {
    logger.info({ signal: s }, "Shutting down");
    signal(s);
  };
  process.once("SIGINT", on);
  process.once("SIGTERM", on);
  return {
    received,
    async finish(stop: () => Promise<unknown>): Promise<number> {
      const done = stop().then(
        () => 0,
        (err) => {
          logger.warn({ err }, "Shutdown step failed");
          return 0;
        },
      );
      if (await within(done, SHUTDOWN_DEADLINE_MS)) return done;
      logger.warn({ deadline_ms: SHUTDOWN_DEADLINE_MS }, "Shutdown deadline reached; exiting");
      return 0;
    },
  };
}
