import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tiedToThisProcess } from "../../util/tied-child.js";
import { utf8Text } from "../../util/utf8-text.js";
import { CompilerError } from "./errors.js";

export type NativeRunOptions = {
  binary: string;
  args: string[];
  /** Standard JSON, written to stdin (in pieces, as they come). */
  stdin: string | readonly string[];
  timeoutMs: number;
  memoryLimitMb: number;
  /** Extra arguments that need the working directory, e.g. solc's --base-path. */
  argsForCwd?: (cwd: string) => string[];
  /** Called once the process runs with its whole input written (see CompileRequest.onStarted). */
  onStarted?: () => void;
};

export type NativeRunResult = { stdout: string; stderr: string; cwd: string };

const MAX_STDOUT = 512 * 1024 * 1024;
const MAX_STDERR = 64 * 1024;

let prlimitPath: string | null | undefined;
function findPrlimit(): string | null {
  if (prlimitPath !== undefined) return prlimitPath;
  const dirs = ["/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin"];
  prlimitPath = dirs.map((d) => join(d, "prlimit")).find((p) => existsSync(p)) ?? null;
  return prlimitPath;
}

/**
 * The address-space limit: util-linux `prlimit --as` when installed, else the shell's `ulimit -v` (POSIX sh);
 * both set RLIMIT_AS on the compiler process itself before it starts. Both exec the compiler, which is tied to
 * this process: a `kill -9` of Lookout takes a running compilation down with it.
 */
function limitedCommand(binary: string, args: string[], memoryLimitMb: number): [string, string[]] {
  const bytes = memoryLimitMb * 1024 * 1024;
  const prlimit = findPrlimit();
  if (prlimit) return tiedToThisProcess(prlimit, [`--as=${bytes}`, "--", binary, ...args]);
  return tiedToThisProcess("/bin/sh", [
    "-c",
    `ulimit -v ${memoryLimitMb * 1024} && exec "$0" "$@"`,
    binary,
    ...args,
  ]);
}

/**
 * Runs a compiler binary in a fresh empty directory that is removed afterwards, with a clean environment
 * (no server secrets), a time limit (the whole process group is killed) and a memory limit.
 */
export async function runNative(opts: NativeRunOptions): Promise<NativeRunResult> {
  const cwd = await mkdtemp(join(tmpdir(), "lookout-compile-"));
  try {
    const args = [...opts.args, ...(opts.argsForCwd?.(cwd) ?? [])];
    const [cmd, argv] = limitedCommand(opts.binary, args, opts.memoryLimitMb);
    return await new Promise<NativeRunResult>((resolve, reject) => {
      const child = spawn(cmd, argv, {
        cwd,
        env: { PATH: "/usr/bin:/bin", HOME: cwd, TMPDIR: cwd, LANG: "C.UTF-8" },
        stdio: ["pipe", "pipe", "pipe"],
        // Own process group, so a timeout also kills anything the compiler started.
        detached: true,
      });
      const out: Buffer[] = [];
      let outLen = 0;
      let err = "";
      let failure: CompilerError | undefined;
      const kill = (e: CompilerError) => {
        failure ??= e;
        try {
          if (child.pid) process.kill(-child.pid, "SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
      };
      const timer = setTimeout(
        () =>
          kill(
            new CompilerError("timeout", `compilation timed out after ${opts.timeoutMs} ms`, {
              details: opts.binary,
            }),
          ),
        opts.timeoutMs,
      );
      child.stdout.on("data", (b: Buffer) => {
        outLen += b.length;
        if (outLen > MAX_STDOUT) kill(new CompilerError("memory", "The compiler output is too large"));
        else out.push(b);
      });
      child.stderr.on("data", (b: Buffer) => {
        if (err.length < MAX_STDERR) err += b.toString("utf8");
      });
      child.stdin.on("error", () => undefined); // a compiler that exits early closes its stdin
      child.on("error", (e) => {
        clearTimeout(timer);
        reject(
          new CompilerError("crash", "The compiler could not be started", { details: e.message, cause: e }),
        );
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        if (failure) return reject(failure);
        const stdout = utf8Text(Buffer.concat(out));
        // Some compilers exit non-zero after printing a proper standard JSON output with errors.
        if (code === 0 || isJsonObject(stdout)) return resolve({ stdout, stderr: err, cwd });
        const tail = err.slice(-2000).trim();
        const oom = /bad_alloc|MemoryError|Cannot allocate|out of memory/i.test(err);
        reject(
          new CompilerError(
            oom ? "memory" : "crash",
            oom
              ? `the compiler ran out of memory (limit ${opts.memoryLimitMb} MB)`
              : `The compiler exited with ${signal ? `signal ${signal}` : `code ${code}`}`,
            { details: tail || undefined },
          ),
        );
      });
      if (typeof opts.stdin === "string") child.stdin.end(opts.stdin);
      else {
        for (const part of opts.stdin) child.stdin.write(part);
        child.stdin.end();
      }
      opts.onStarted?.();
    });
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

function isJsonObject(text: string): boolean {
  if (!text.trimStart().startsWith("{")) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
