import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app/http-app.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { type CliProcess, killAllCli, runCli } from "../helpers/cli.js";
import { createTestDatabaseUrl, createTestDb } from "../helpers/db.js";

/** SIGTERM, then the exit code and how long the process took to exit (or a failure after `limitMs`). */
async function terminate(p: CliProcess, limitMs = 30_000) {
  const t0 = Date.now();
  p.child.kill("SIGTERM");
  const limit = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`still running ${limitMs} ms after SIGTERM:\n${p.output().slice(-2000)}`)),
      limitMs,
    ).unref(),
  );
  const { code, signal } = await Promise.race([p.exited, limit]);
  return { code, signal, ms: Date.now() - t0 };
}

describe("bounded requests", () => {
  it("closes a request whose body never completes within the body timeout, with a 408", async () => {
    const t = await createTestDb();
    const app = await buildApp({
      db: t.db,
      config: { bodyLimit: 1024 * 1024, httpHeadersTimeoutMs: 300, httpBodyTimeoutMs: 600 },
      logger: false,
    });
    try {
      await app.listen({ port: 0, host: "127.0.0.1" });
      const port = (app.server.address() as AddressInfo).port;
      const answer = await new Promise<{ data: string; ms: number }>((resolve, reject) => {
        const s = connect(port, "127.0.0.1");
        const t0 = Date.now();
        let data = "";
        s.on("data", (d) => {
          data += d.toString();
        });
        s.on("error", reject);
        s.on("close", () => resolve({ data, ms: Date.now() - t0 }));
        s.write(
          "POST /api/v1/solidity/sources:verify-standard-json HTTP/1.1\r\nHost: x\r\n" +
            'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":',
        );
      });
      expect(answer.data).toMatch(/^HTTP\/1\.1 (408|400)/);
      // Closed by the server after the configured limit, not at Node's default of five minutes.
      expect(answer.ms).toBeLessThan(60_000);
      // The server still answers, and closes promptly.
      expect((await app.inject({ url: "/api/v2/no-such-route" })).statusCode).toBe(400);
    } finally {
      await app.close();
      await t.drop();
    }
  });
});

describe("bounded shutdown", () => {
  let chain: TestChain | undefined;
  const dirs: string[] = [];
  afterAll(async () => {
    await killAllCli();
    if (chain) {
      chain.anvil.process.kill("SIGCONT");
      await chain.stop();
    }
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  async function env() {
    const dir = mkdtempSync(join(tmpdir(), "lookout-shutdown-"));
    dirs.push(dir);
    const pg = await createTestDatabaseUrl();
    return { env: pg ? { DATABASE_URL: pg.url } : { DATA_DIR: dir }, pg };
  }

  it("SIGTERM during start-up (the node not answering) exits 0 within 10 s", {
    timeout: 300_000,
  }, async () => {
    chain ??= await startTestChain();
    const { env: e, pg } = await env();
    chain.anvil.process.kill("SIGSTOP");
    try {
      const p = runCli(["start"], { ...e, RPC_URL: chain.anvil.url, PORT: "0" });
      // Start-up is under way: the database is open and migrated, the node is being asked its chain id.
      await p.waitFor(/Applied database migrations/, 240_000);
      const r = await terminate(p);
      expect(r.code).toBe(0);
      expect(r.ms).toBeLessThan(10_000);
    } finally {
      chain.anvil.process.kill("SIGCONT");
      await killAllCli();
      await pg?.drop();
    }
  });

  it("SIGTERM while the compilers are being discovered exits 0 within 10 s", {
    timeout: 300_000,
  }, async () => {
    chain ??= await startTestChain();
    const { env: e, pg } = await env();
    try {
      // A fresh COMPILERS_DIR: the installed solc-js versions are probed in workers after the server listens.
      const p = runCli(["start"], { ...e, RPC_URL: chain.anvil.url, PORT: "0" });
      await p.waitFor(/compilers: discovering in the background/, 240_000);
      const r = await terminate(p);
      expect(r.code).toBe(0);
      expect(r.ms).toBeLessThan(10_000);
    } finally {
      await killAllCli();
      await pg?.drop();
    }
  });

  it("SIGTERM while following a node that froze exits 0 within 10 s", { timeout: 300_000 }, async () => {
    chain ??= await startTestChain();
    const { env: e, pg } = await env();
    try {
      const p = runCli(["index"], {
        ...e,
        RPC_URL: chain.anvil.url,
        POLL_INTERVAL_MS: "50",
        LOG_LEVEL: "debug",
      });
      // Following: the chain (a few blocks) is indexed, the indexer polls the head.
      await p.waitFor(/Committed blocks/, 240_000);
      chain.anvil.process.kill("SIGSTOP");
      const r = await terminate(p);
      expect(r.code).toBe(0);
      expect(r.ms).toBeLessThan(10_000);
    } finally {
      chain.anvil.process.kill("SIGCONT");
      await killAllCli();
      await pg?.drop();
    }
  });
});
