import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../src/chain/anvil.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { type CliProcess, runCli } from "../helpers/cli.js";
import { createTestDatabaseUrl } from "../helpers/db.js";

// The database is made read-only from a second session: only PostgreSQL has one (PGlite belongs to one process).
const PG = process.env.TEST_DATABASE_URL;
const SKIP_REASON = "needs PostgreSQL: set TEST_DATABASE_URL (PGlite cannot be made read-only from outside)";

type Health = {
  status: string;
  database: { ok: boolean; writable: boolean };
  indexer: { height: number | null; last_error: string | null };
};

async function health(port: number): Promise<{ code: number; body: Health }> {
  const r = await fetch(`http://127.0.0.1:${port}/health`);
  return { code: r.status, body: (await r.json()) as Health };
}

async function waitUntil(what: string, cond: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    if (await cond().catch(() => false)) return;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!PG)(`/health of a failing writer${PG ? "" : ` (skipped: ${SKIP_REASON})`}`, () => {
  let chain: TestChain | undefined;
  let main: { url: string; drop(): Promise<void> } | undefined;
  let proc: CliProcess | undefined;
  let admin: pg.Client | undefined;
  const dir = mkdtempSync(join(tmpdir(), "lookout-health-writer-"));
  afterAll(async () => {
    await proc?.kill();
    await admin?.end();
    await main?.drop();
    await chain?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("an indexer whose database turns read-only reports writable false with the error (503), then recovers", async () => {
    chain = await startTestChain({ blockTime: 1 });
    main = (await createTestDatabaseUrl())!;
    const name = new URL(main.url).pathname.slice(1);
    const port = await freePort();
    proc = runCli(["index"], {
      DATABASE_URL: main.url,
      RPC_URL: chain.anvil.url,
      DATA_DIR: dir,
      PORT: String(port),
      POLL_INTERVAL_MS: "200",
      LEASE_POLL_MS: "300",
    });
    await waitUntil(
      "the indexer to index",
      async () => {
        const h = await health(port);
        return h.code === 200 && (h.body.indexer.height ?? 0) >= 2;
      },
      90_000,
    );
    admin = new pg.Client({ connectionString: PG });
    await admin.connect();
    // New sessions of the database are read-only; ending the current ones makes the process reconnect into them.
    const reconnect = () =>
      admin!.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [name],
      );
    await admin.query(`alter database ${name} set default_transaction_read_only = on`);
    await reconnect();
    let failing: { code: number; body: Health } | undefined;
    await waitUntil(
      "/health to report the failing writer",
      async () => {
        failing = await health(port);
        // A request served on a pooled connection that was just terminated fails its read (ok false) once;
        // wait for the settled state: reads work again, the writer does not.
        return failing.body.database.ok && failing.body.database.writable === false;
      },
      60_000,
    );
    // Reads still work; the role writes, so it cannot do its job: 503 with the writer's error.
    expect(failing!.code).toBe(503);
    expect(failing!.body).toMatchObject({ status: "degraded", database: { ok: true, writable: false } });
    expect(failing!.body.indexer.last_error).toMatch(/read-only transaction/);
    const stuck = failing!.body.indexer.height ?? 0;

    await admin.query(`alter database ${name} reset default_transaction_read_only`);
    await reconnect();
    await waitUntil(
      "/health to report the writer recovered",
      async () => {
        const h = await health(port);
        return (
          h.code === 200 &&
          h.body.database.writable &&
          h.body.indexer.last_error === null &&
          (h.body.indexer.height ?? 0) > stuck
        );
      },
      90_000,
    );
  }, 300_000);
});
