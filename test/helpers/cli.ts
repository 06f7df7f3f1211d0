import { type ChildProcess, spawn } from "node:child_process";
import { packagePath } from "../../src/util/package-root.js";

export type CliProcess = {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first output line matching `re`. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** Runs the built CLI (`dist/cli/main.js`) with the given environment. */
export function runCli(args: string[], env: Record<string, string | undefined>): CliProcess {
  const child = spawn(process.execPath, [packagePath("dist/cli/main.js"), ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const waiters: Array<{ re: RegExp; resolve: (l: string) => void }> = [];
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const w of [...waiters]) {
      const line = out.split("\n").find((l) => w.re.test(l));
      if (line) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    exited,
    output: () => out,
    waitFor(re, timeoutMs = 60_000) {
      const line = out.split("\n").find((l) => re.test(l));
      if (line) return Promise.resolve(line);
      return new Promise((resolve, reject) => {
        const t = setTimeout(
          () => reject(new Error(`timed out waiting for ${re}; output:\n${out.slice(-3000)}`)),
          timeoutMs,
        );
        waiters.push({
          re,
          resolve: (l) => {
            clearTimeout(t);
            resolve(l);
          },
        });
        void exited.then(() => {
          setTimeout(
            () => reject(new Error(`process exited before ${re}; output:\n${out.slice(-3000)}`)),
            50,
          );
        });
      });
    },
  };
}
