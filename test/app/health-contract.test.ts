import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HealthSources } from "../../src/app/health.js";
import { buildApp } from "../../src/app/http-app.js";
import { createMetrics } from "../../src/metrics/registry.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

describe("/health and /metrics contract", () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb();
  });
  afterEach(async () => {
    await t.drop();
  });

  const app = (health: HealthSources, extra: { readOnlyReason?: string } = {}) => {
    const metrics = createMetrics(health.role ?? "test");
    metrics.sources.height = async () =>
      (await t.db.query<{ h: number }>("select last_block as h from indexer_state"))[0]?.h ?? null;
    return buildApp({
      db: t.db,
      config: { bodyLimit: 1024 * 1024 },
      logger: false,
      health,
      metrics,
      ...extra,
    });
  };

  it("reports the role, writability, the height read from the database and the lease; 503 when it cannot work", async () => {
    const serve = await app({ role: "serve", writable: () => true });
    const empty = await serve.inject({ method: "GET", url: "/health" });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({
      status: "ok",
      role: "serve",
      database: { ok: true, writable: true },
      indexer: { chain_id: null, height: null, lease: null },
    });
    // Another process indexed: the height comes from the database, not from an indexer in this process.
    await t.db.query(
      "insert into indexer_state (id, chain_id, start_block, start_hash, last_block, last_hash) values (1, 5, 0, '\\x00', 41, '\\x01')",
    );
    expect((await serve.inject({ method: "GET", url: "/health" })).json()).toMatchObject({
      indexer: { chain_id: 5, height: 41 },
    });
    await serve.close();

    // A read-only serve still serves reads: healthy, but says it cannot write, and refuses writes with 503.
    const ro = await app({ role: "serve", writable: () => false }, { readOnlyReason: "role lacks INSERT" });
    const h = await ro.inject({ method: "GET", url: "/health" });
    expect(h.statusCode).toBe(200);
    expect(h.json()).toMatchObject({ database: { writable: false } });
    const w = await ro.inject({ method: "POST", url: "/api", payload: { module: "contract" } });
    expect(w.statusCode).toBe(503);
    expect(w.json().message).toMatch(/read-only.*role lacks INSERT/);
    await ro.close();

    // A worker that cannot write cannot do its job: 503 for the load balancer.
    const work = await app({ role: "work", writable: () => false, requiresWrite: true });
    const wh = await work.inject({ method: "GET", url: "/health" });
    expect(wh.statusCode).toBe(503);
    expect(wh.json()).toMatchObject({ status: "degraded", role: "work" });
    await work.close();

    const index = await app({ role: "index", lease: () => ({ held: false, kind: "advisory-lock" }) });
    expect((await index.inject({ method: "GET", url: "/health" })).json()).toMatchObject({
      role: "index",
      indexer: { lease: { held: false, kind: "advisory-lock" } },
    });
    await index.close();
  });

  it("serves Prometheus metrics: index height from the database and HTTP latency by route", async () => {
    await t.db.query(
      "insert into indexer_state (id, chain_id, start_block, start_hash, last_block, last_hash) values (1, 5, 0, '\\x00', 7, '\\x01')",
    );
    const a = await app({ role: "serve" });
    await a.inject({ method: "GET", url: "/health" });
    const m = await a.inject({ method: "GET", url: "/metrics" });
    expect(m.statusCode).toBe(200);
    expect(m.headers["content-type"]).toMatch(/text\/plain/);
    expect(m.body).toMatch(/^lookout_index_height\{role="serve"\} 7$/m);
    const line = m.body.split("\n").find((l) => l.startsWith("lookout_http_request_seconds_count{"));
    expect(line).toContain('route="/health"');
    expect(line).toContain('status="200"');
    expect(line).toMatch(/ 1$/);
    expect(m.body).toMatch(/lookout_verification_jobs_pending/);
    await a.close();
  });
});
