import { type ChildProcess, spawn } from "node:child_process";
import { builtCliPath } from "../../src/util/package-root.js";
import { suiteEnv } from "./suite-marker.js";

export type CliProcess = {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first output line matching `re` (a generous default deadline: a loaded machine is slow). */
  waitFor(re: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves once `count` output lines match `re`. */
  waitForCount(re: RegExp, count: number, timeoutMs?: number): Promise<void>;
  /** SIGKILLs the process if it is still running and waits for its exit. */
  kill(): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

const running = new Set<ChildProcess>();

/**
 * SIGKILLs every CLI process this test file started that is still running. Tests call it in `finally`/`afterAll`
 * so a failed or timed-out test leaves no process behind; the exit hook below is the last resort.
 */
export async function killAllCli(graceMs = 12_000): Promise<void> {
  // SIGTERM first: a `start` process stops the anvil it launched (within its own 9 s deadline); SIGKILL after the
  // grace period, so a hung process never outlives the test.
  await Promise.all(
    [...running].map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          const hard = setTimeout(() => c.kill("SIGKILL"), graceMs);
          c.once("exit", () => {
            clearTimeout(hard);
            resolve();
          });
          c.kill("SIGTERM");
        }),
    ),
  );
}
process.once("exit", () => {
  for (const c of running) c.kill("SIGKILL");
});

const matching = (out: string, re: RegExp) => out.split("\n").filter((l) => re.test(l));

/** Runs the built CLI (package.json's `bin`) with the given environment. */
export function runCli(args: string[], env: Record<string, string | undefined>): CliProcess {
  const child = spawn(process.execPath, [builtCliPath(), ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "info", ...suiteEnv(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let out = "";
  const waiters: Array<{ re: RegExp; count: number; resolve: (l: string) => void }> = [];
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const w of [...waiters]) {
      const lines = matching(out, w.re);
      if (lines.length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(lines[w.count - 1]!);
      }
    }
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  function waitLines(re: RegExp, count: number, timeoutMs: number): Promise<string> {
    const seen = matching(out, re);
    if (seen.length >= count) return Promise.resolve(seen[count - 1]!);
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`timed out waiting for ${re} (x${count}); output:\n${out.slice(-3000)}`)),
        timeoutMs,
      );
      waiters.push({
        re,
        count,
        resolve: (l) => {
          clearTimeout(t);
          resolve(l);
        },
      });
      void exited.then(() => {
        setTimeout(() => {
          clearTimeout(t);
          reject(new Error(`process exited before ${re} (x${count}); output:\n${out.slice(-3000)}`));
        }, 50);
      });
    });
  }
  return {
    child,
    exited,
    output: () => out,
    waitFor: (re, timeoutMs = 180_000) => waitLines(re, 1, timeoutMs),
    waitForCount: async (re, count, timeoutMs = 180_000) => {
      await waitLines(re, count, timeoutMs);
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
