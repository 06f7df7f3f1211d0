import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { migrate } from "../src/db/migrate.js";
import { createPgliteDb } from "../src/db/pglite.js";
import { PGLITE_TEMPLATE } from "./helpers/db.js";

/**
 * Once per test run: build dist/ (tests run the real CLI in child processes) and, for PGlite runs, a migrated
 * database template that each test's in-memory database loads instead of running initdb (seconds each).
 */
export default async function setup() {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-needed"], { stdio: "inherit" });
  if (process.env.TEST_DATABASE_URL) return;
  const db = await createPgliteDb();
  await migrate(db);
  const dump = await db.dump();
  await db.close();
  mkdirSync(dirname(PGLITE_TEMPLATE), { recursive: true });
  writeFileSync(PGLITE_TEMPLATE, Buffer.from(await dump.arrayBuffer()));
}
