import { spawn } from "node:child_process";
import { suiteEnv } from "./suite-marker.js";

export type ToolResult = { code: number | null; out: string };

/**
 * Runs a developer tool (forge, hardhat) asynchronously, so the server under test can answer it from this same
 * process; stdout and stderr in one string, killed after `timeoutMs`.
 */
export function runTool(
  command: string,
  args: readonly string[],
  o: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<ToolResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: o.cwd,
      env: { ...suiteEnv(), ...o.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const collect = (d: Buffer) => {
      out += d.toString();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const timer = setTimeout(() => child.kill("SIGKILL"), o.timeoutMs ?? 120_000);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}
