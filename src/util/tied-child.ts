import { existsSync } from "node:fs";

let setprivPath: string | null | undefined;

/** util-linux `setpriv` (Debian/Ubuntu: always installed, util-linux is essential), or null elsewhere. */
export function findSetpriv(): string | null {
  if (setprivPath !== undefined) return setprivPath;
  setprivPath =
    process.platform === "linux"
      ? (["/usr/bin/setpriv", "/bin/setpriv"].find((p) => existsSync(p)) ?? null)
      : null;
  return setprivPath;
}

/**
 * The command line that runs `cmd args` so that it dies with this process, also when this process is killed with
 * SIGKILL (no handler runs then): `setpriv --pdeathsig SIGKILL` sets the kernel's parent-death signal and execs the
 * command, so no extra process stays around. Node has no prctl of its own. The kernel sends the signal when the
 * *thread* that forked the child ends: call this from the main thread (worker threads end earlier). Without
 * setpriv (not Linux) the command runs as given and only an orderly shutdown stops it.
 */
export function tiedToThisProcess(cmd: string, args: readonly string[]): [string, string[]] {
  const setpriv = findSetpriv();
  if (!setpriv) return [cmd, [...args]];
  return [setpriv, ["--pdeathsig", "SIGKILL", "--", cmd, ...args]];
}
