/** What Linux's /proc says of a process, for the benches; 0 when the process is gone. */
import { readFileSync } from "node:fs";

const TICKS = 100; // USER_HZ on Linux

const kbField = (file: string, field: string): number => {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(file, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
};

/** Resident set size in MB. */
export const rssMbOf = (pid: number): number => kbField(`/proc/${pid}/status`, "VmRSS");

/** Proportional set size in MB: shared memory (PostgreSQL's shared buffers) split among its sharers. */
export const pssMbOf = (pid: number): number => kbField(`/proc/${pid}/smaps_rollup`, "Pss");

/** CPU seconds (user + system) the process has used. */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / TICKS;
  } catch {
    return 0;
  }
}
