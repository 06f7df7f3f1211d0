import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { migrate } from "../src/db/migrate.js";
import { createPgliteDb } from "../src/db/pglite.js";
import { PGLITE_TEMPLATE } from "./helpers/db.js";
import { canListProcesses, parentOf, processesWithEnv } from "./helpers/processes.js";
import { SUITE_ENV } from "./helpers/suite-marker.js";

/**
 * Once per test run: mark the run (see suite-marker.ts), build dist/ (tests run the real CLI in child processes)
 * and, for PGlite runs, a migrated database template that each test's in-memory database loads instead of running
 * initdb (seconds each). The teardown kills whatever the run left running.
 */
export default async function setup() {
  // Set before the test workers start, so they and everything they start inherit it.
  process.env[SUITE_ENV] = randomUUID();
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-needed"], { stdio: "inherit" });
  if (!process.env.TEST_DATABASE_URL) {
    const db = await createPgliteDb();
    await migrate(db);
    const dump = await db.dump();
    await db.close();
    mkdirSync(dirname(PGLITE_TEMPLATE), { recursive: true });
    writeFileSync(PGLITE_TEMPLATE, Buffer.from(await dump.arrayBuffer()));
  }
  return teardown;
}

/**
 * Every test ends what it starts, also on failure; this is the net under that: a process of this run still alive
 * after the last test (a timed-out test's CLI, an anvil, a tool) is killed with its process group, and named.
 */
async function teardown() {
  const id = process.env[SUITE_ENV]!;
  if (!canListProcesses) return;
  // Vitest's own workers (this process's children) may still be exiting when the teardown runs: they get a few
  // seconds to go before they count as left running.
  const ownWorker = (pid: number) => parentOf(pid) === process.pid;
  let left = processesWithEnv(SUITE_ENV, id);
  for (let waited = 0; waited < 5_000 && left.some(ownWorker); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = processesWithEnv(SUITE_ENV, id);
  }
  if (left.length === 0) {
    process.stderr.write("global teardown: no process of this test run is left running\n");
    return;
  }
  const describe = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim().slice(0, 160);
    } catch {
      return "?";
    }
  };
  process.stderr.write(`global teardown: killing ${left.length} process(es) this test run left running:\n`);
  for (const pid of left) {
    process.stderr.write(`  ${pid} ${describe(pid)}\n`);
    for (const target of [-pid, pid]) {
      try {
        // The group first (a leader's children too), then the process itself if it leads none.
        process.kill(target, "SIGKILL");
      } catch {
        // not a group leader, or already gone
      }
    }
  }
}
