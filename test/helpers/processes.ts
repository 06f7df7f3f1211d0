import { readdirSync, readFileSync } from "node:fs";

/** Lists processes from /proc (Linux); elsewhere nothing, and the checks that use it say so by skipping. */
export const canListProcesses = process.platform === "linux";

function read(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** The fields of /proc/<pid>/stat after the command name ("pid (comm) S ppid ..."): state, parent, ...; null when gone. */
function statFields(pid: number): string[] | null {
  const stat = read(`/proc/${pid}/stat`);
  return stat === null ? null : stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** Running, not a zombie: a killed child whose parent died stays a zombie until init reaps it. */
export function isAlive(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state !== undefined && state !== "Z" && state !== "X";
}

/** The parent's pid (null when the process is gone). */
export function parentOf(pid: number): number | null {
  const ppid = statFields(pid)?.[1];
  return ppid === undefined ? null : Number(ppid);
}

function pids(): number[] {
  return readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

/** Living processes whose command line (arguments split) passes `match`. */
export function findProcesses(match: (argv: string[]) => boolean): number[] {
  return pids().filter((pid) => {
    const cmd = read(`/proc/${pid}/cmdline`);
    return cmd !== null && match(cmd.split("\0").filter(Boolean)) && isAlive(pid);
  });
}

/** Living processes whose environment holds `name=value` (inherited down a process tree unless replaced). */
export function processesWithEnv(name: string, value: string): number[] {
  const entry = `${name}=${value}`;
  return pids().filter((pid) => {
    if (pid === process.pid) return false;
    const env = read(`/proc/${pid}/environ`);
    return env?.split("\0").includes(entry) === true && isAlive(pid);
  });
}
