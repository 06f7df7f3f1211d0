import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../src/chain/anvil.js";
import type { Db } from "../../src/db/db.js";
import { createPostgresDb } from "../../src/db/pg.js";
import { createPgliteDb } from "../../src/db/pglite.js";
import { packagePath } from "../../src/util/package-root.js";
import { startTestChain } from "../helpers/anvil.js";
import { type CliProcess, killAllCli, runCli } from "../helpers/cli.js";
import { createTestDatabaseUrl } from "../helpers/db.js";

const dir = mkdtempSync(join(tmpdir(), "lookout-wipe-"));
const procs: CliProcess[] = [];
afterAll(async () => {
  // SIGTERM, then SIGKILL after a grace period: a `start` takes the anvil it launched down with it.
  await killAllCli();
  await Promise.all(procs.map((p) => p.exited));
  rmSync(dir, { recursive: true, force: true });
});

const offline = {
  COMPILERS_DIR: packagePath("node_modules/.cache/lookout-test-compilers"),
  SOLC_LIST_URL: "http://127.0.0.1:1/list.json",
  SOLCJS_LIST_URL: "http://127.0.0.1:1/bin/list.json",
  VYPER_LIST_URL: "http://127.0.0.1:1/vyper.json",
};

describe("lookout start never wipes another chain's index by accident", () => {
  it("refuses without RPC_URL when the database holds a chain it did not launch; --reset replaces it", async () => {
    const chain = await startTestChain({ chainId: 4242 });
    const pg = await createTestDatabaseUrl();
    const where = pg ? { DATABASE_URL: pg.url } : { DATA_DIR: dir };
    const open = (): Promise<Db> => (pg ? createPostgresDb(pg.url) : createPgliteDb(join(dir, "pglite")));
    const run = (args: string[], env: Record<string, string>) => {
      const p = runCli(args, { ...where, ...offline, ...env });
      procs.push(p);
      return p;
    };
    const chainIds = async () => {
      const db = await open();
      try {
        return (await db.query<{ chain_id: number }>("select chain_id from indexer_state")).map(
          (r) => r.chain_id,
        );
      } finally {
        await db.close();
      }
    };
    try {
      const port = await freePort();
      const index = run(["index"], { RPC_URL: chain.anvil.url, PORT: String(port) });
      await index.waitFor(/Health and metrics listening/, 90_000);
      // Indexed (the genesis block is enough): the database now holds chain 4242.
      for (let i = 0; ; i++) {
        const h = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as {
          indexer: { height: number | null };
        };
        if (h.indexer.height !== null) break;
        if (i > 300) throw new Error("the indexer wrote nothing");
        await new Promise((r) => setTimeout(r, 200));
      }
      index.child.kill("SIGTERM");
      expect((await index.exited).code).toBe(0);

      const refused = run(["start"], { PORT: String(await freePort()) });
      expect((await refused.exited).code).toBe(1);
      expect(refused.output()).toMatch(/holds the index of chain 4242.*Set RPC_URL.*--reset/);
      expect(refused.output()).not.toMatch(/Local chain \(anvil\)/);
      expect(await chainIds()).toEqual([4242]);

      const reset = run(["start", "--reset"], { PORT: String(await freePort()) });
      await reset.waitFor(/HTTP server listening/, 120_000);
      reset.child.kill("SIGTERM");
      expect((await reset.exited).code).toBe(0);
      expect(await chainIds()).toEqual([31337]);

      // The index of the local chain `start` launched is its own: a second start replaces it without asking.
      const again = run(["start"], { PORT: String(await freePort()) });
      await again.waitFor(/HTTP server listening/, 120_000);
      again.child.kill("SIGTERM");
      expect((await again.exited).code).toBe(0);
    } finally {
      await chain.stop();
      await pg?.drop();
    }
  }, 300_000);
});
