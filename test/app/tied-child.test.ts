import { spawn } from "node:child_process";
import { describe, it } from "vitest";
import { findSetpriv, tiedToThisProcess } from "../../src/util/tied-child.js";
import { canListProcesses, isAlive } from "../helpers/processes.js";
import { waitUntil } from "../helpers/wait.js";

// The mechanism anvil and the native compilers are started with (local-chain-kept.test.ts checks anvil itself).
describe.skipIf(!canListProcesses || !findSetpriv())("a child tied to its parent", () => {
  it("dies when the parent is killed with SIGKILL", async () => {
    // A stand-in for Lookout: a Node process that starts a long-running child the way Lookout does, prints its
    // pid, and waits.
    const [cmd, args] = tiedToThisProcess("sleep", ["600"]);
    const parent = spawn(
      process.execPath,
      [
        "-e",
        `const c = require("node:child_process").spawn(${JSON.stringify(cmd)}, ${JSON.stringify(args)}, { stdio: "ignore" });
         c.on("spawn", () => console.log(c.pid)); setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      let out = "";
      parent.stdout.on("data", (d: Buffer) => {
        out += d.toString();
      });
      const child = await waitUntil("the child's pid", () => (/^\d+\n/.test(out) ? Number(out) : undefined));
      // Running `sleep` itself (setpriv execs it), not a wrapper.
      await waitUntil("the child to run sleep", () => isAlive(child));
      parent.kill("SIGKILL");
      await waitUntil(`the child (pid ${child}) to die with its parent`, () => !isAlive(child), 30_000);
    } finally {
      parent.kill("SIGKILL");
    }
  });
});
