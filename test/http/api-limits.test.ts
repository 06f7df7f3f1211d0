import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { type AppDeps, buildApp } from "../../src/app/http-app.js";
import { createPostgresDb } from "../../src/db/pg.js";
import type { VerifierApi } from "../../src/verifier/api.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

/** The RPC modules read the index only here: no chain, no verification. */
const noVerifier = { chains: new Map(), compilers: {}, jobs: {} } as unknown as VerifierApi;

const limited = (config: Partial<AppDeps["config"]> = {}) => ({
  bodyLimit: 1e6,
  apiRateLimitIsBlockscoutBehindProxy: true,
  apiRateLimitByIp: 20,
  apiRateLimitByIpTimeInterval: "1m",
  ...config,
});

describe("rate limits (Blockscout's API_RATE_LIMIT_*) and 503s", () => {
  let t: TestDb | undefined;
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of closers.splice(0).reverse()) await c();
    await t?.drop();
    t = undefined;
  });

  async function app(config: Partial<AppDeps["config"]>, shared = false) {
    const a = await buildApp({
      db: t!.db,
      config: { bodyLimit: 1e6, ...config },
      logger: false,
      verifier: { ...noVerifier, db: t!.db } as VerifierApi,
      rateLimitDb: shared ? t!.db : null,
    });
    closers.push(() => a.close());
    return a;
  }

  const ROUTES = [
    { name: "/api/v2", get: { url: "/api/v2/main-page/blocks" }, body: { message: "Too many requests" } },
    {
      name: "/api",
      get: { url: "/api?module=block&action=eth_block_number" },
      body: { status: "0", message: "Too many requests", result: null },
    },
    {
      name: "/api/eth-rpc",
      get: {
        url: "/api/eth-rpc",
        method: "POST" as const,
        headers: { "content-type": "application/json" },
        payload: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
      },
      body: { jsonrpc: "2.0", id: null, error: { code: -32005, message: "Too many requests" } },
    },
  ];

  it("a flood from one client gets 429 with Retry-After in each dialect; another client is never limited", async () => {
    t = await createTestDb();
    const a = await app(limited());
    for (const [i, r] of ROUTES.entries()) {
      const flooder = `198.51.100.${i + 1}`;
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof a.inject>> | undefined;
      for (let n = 0; n < 25; n++) {
        last = await a.inject({ ...r.get, headers: { ...r.get.headers, "x-forwarded-for": flooder } });
        statuses.push(last.statusCode);
        // A second client browsing at its own pace, interleaved with the flood, is served every time.
        if (n % 3) continue;
        const calm = await a.inject({
          ...r.get,
          headers: { ...r.get.headers, "x-forwarded-for": `203.0.113.${i}` },
        });
        expect(calm.statusCode, r.name).not.toBe(429);
      }
      expect(
        statuses.slice(0, 10).every((s) => s !== 429),
        r.name,
      ).toBe(true);
      expect(statuses.filter((s) => s === 429).length, r.name).toBe(5);
      expect(last!.statusCode).toBe(429);
      expect(Number(last!.headers["retry-after"]), r.name).toBeGreaterThan(0);
      expect(last!.headers["x-ratelimit-limit"], r.name).toBe("20");
      expect(last!.json(), r.name).toEqual(r.body);
    }
    // The forwarded address counts only behind a proxy: the one a client writes itself is not believed.
    const spoofed = await a.inject({
      url: "/api/v2/main-page/blocks",
      headers: { "x-forwarded-for": "10.9.9.9, 198.51.100.1" },
    });
    expect(spoofed.statusCode).toBe(429);
    // Probes are never limited.
    expect(
      (await a.inject({ url: "/health", headers: { "x-forwarded-for": "198.51.100.1" } })).statusCode,
    ).not.toBe(429);
  }, 120_000);

  it("a client over its limit gets the same 429 every time until its window ends, then is served again", async () => {
    t = await createTestDb();
    const a = await app(limited({ apiRateLimitByIp: 3, apiRateLimitByIpTimeInterval: "2s" }));
    const get = (url = "/api/v2/main-page/blocks") =>
      a.inject({ url, headers: { "x-forwarded-for": "198.51.100.30", origin: "https://example.org" } });
    for (let n = 0; n < 3; n++) expect((await get()).statusCode).not.toBe(429);
    // The first 429 comes from the plugin, the later ones from the fast path (rate-limits.ts): the same answer.
    const first = await get();
    const answers = [first];
    for (let n = 0; n < 5; n++) answers.push(await get());
    const pick = (r: typeof first) => ({
      status: r.statusCode,
      body: r.body,
      cors: r.headers["access-control-allow-origin"],
      limit: r.headers["x-ratelimit-limit"],
      remaining: r.headers["x-ratelimit-remaining"],
      type: r.headers["content-type"],
    });
    for (const r of answers) {
      expect(pick(r)).toEqual(pick(first));
      expect(Number(r.headers["retry-after"])).toBeGreaterThan(0);
      expect(Number(r.headers["retry-after"])).toBeLessThanOrEqual(2);
    }
    expect(first.statusCode).toBe(429);
    expect(first.headers["access-control-allow-origin"]).toBe("*");
    // Each dialect keeps its shape on the fast path: the /api envelope for the same client, over the same limit.
    const api = await get("/api?module=block&action=eth_block_number");
    expect(api.statusCode).toBe(429);
    expect(api.json()).toEqual({ status: "0", message: "Too many requests", result: null });
    // Probes stay unlimited for a client over its limit.
    expect((await get("/health")).statusCode).not.toBe(429);
    // Served again once the window ends (waited for, not slept: a bounded poll).
    const until = Date.now() + 30_000;
    let status = 429;
    while (status === 429 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await get()).statusCode;
    }
    expect(status).not.toBe(429);
  }, 60_000);

  it("loopback is not limited unless Lookout runs behind a proxy; API_RATE_LIMIT_DISABLED turns limits off", async () => {
    t = await createTestDb();
    const local = await app({ apiRateLimitByIp: 5 });
    for (let n = 0; n < 30; n++)
      expect((await local.inject({ url: "/api/v2/main-page/blocks" })).statusCode).not.toBe(429);
    const off = await app({ ...limited({ apiRateLimitByIp: 5 }), apiRateLimitDisabled: true });
    for (let n = 0; n < 30; n++)
      expect(
        (
          await off.inject({
            url: "/api/v2/main-page/blocks",
            headers: { "x-forwarded-for": "198.51.100.9" },
          })
        ).statusCode,
      ).not.toBe(429);
  }, 60_000);

  it("API_RATE_LIMIT_STATIC_API_KEY counts under its own limit; whitelisted addresses under theirs", async () => {
    t = await createTestDb();
    const a = await app(
      limited({
        apiRateLimitByIp: 3,
        apiRateLimitStaticApiKey: "s3cret",
        apiRateLimitByKey: 8,
        apiRateLimitByKeyTimeInterval: "1m",
        apiRateLimitWhitelistedIps: ["198.51.100.50"],
        apiRateLimitByWhitelistedIp: 6,
        apiRateLimitByWhitelistedIpTimeInterval: "1m",
      }),
    );
    const count = async (url: string, ip: string) => {
      let ok = 0;
      for (let n = 0; n < 12; n++)
        if ((await a.inject({ url, headers: { "x-forwarded-for": ip } })).statusCode !== 429) ok++;
      return ok;
    };
    expect(await count("/api/v2/main-page/blocks", "198.51.100.40")).toBe(3);
    expect(await count("/api/v2/main-page/blocks?apikey=s3cret", "198.51.100.41")).toBe(8);
    expect(await count("/api/v2/main-page/blocks", "198.51.100.50")).toBe(6);
  }, 60_000);

  it("refetch-metadata is limited per client in a group of its own (50 an hour), apart from the general limit", async () => {
    t = await createTestDb();
    // The general limit is far above the group's: only the refetch group can answer 429 here.
    const a = await app(limited({ apiRateLimitByIp: 10_000 }));
    const refetch = (ip: string, id: number) =>
      a.inject({
        method: "PATCH",
        url: `/api/v2/tokens/0x${"ab".repeat(20)}/instances/${id}/refetch-metadata`,
        headers: { "x-forwarded-for": ip },
      });
    const statuses: number[] = [];
    // Another instance id each time: the limit is the client's, not the instance's.
    for (let n = 0; n < 55; n++) statuses.push((await refetch("198.51.100.60", n)).statusCode);
    expect(statuses.slice(0, 50).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(50).every((s) => s === 429)).toBe(true);
    const last = await refetch("198.51.100.60", 99);
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers["retry-after"])).toBeGreaterThan(0);
    expect(last.headers["x-ratelimit-limit"]).toBe("50");
    expect(last.json()).toMatchObject({ message: "Too many requests" });
    // The same client's other requests are under the general limit, and another client's refetches under its own.
    expect(
      (await a.inject({ url: "/api/v2/main-page/blocks", headers: { "x-forwarded-for": "198.51.100.60" } }))
        .statusCode,
    ).not.toBe(429);
    expect((await refetch("198.51.100.61", 1)).statusCode).not.toBe(429);
  }, 60_000);

  it("counts are shared by every serve process of one PostgreSQL database", async (ctx) => {
    t = await createTestDb();
    if (!t.url) return ctx.skip("needs PostgreSQL (TEST_DATABASE_URL): PGlite serves one process");
    const one = await app(limited({ apiRateLimitByIp: 10 }), true);
    const two = await app(limited({ apiRateLimitByIp: 10 }), true);
    const statuses: number[] = [];
    for (let n = 0; n < 12; n++) {
      const a = n % 2 ? one : two;
      statuses.push(
        (await a.inject({ url: "/api/v2/main-page/blocks", headers: { "x-forwarded-for": "198.51.100.77" } }))
          .statusCode,
      );
    }
    expect(statuses.filter((s) => s === 429).length).toBe(2);
    // A client over its limit is answered from memory until its window ends: more 429s cost the database nothing.
    const hits = async () =>
      (
        await t!.db.query<{ hits: number }>("select hits from api_rate_limits where key like $1", [
          "%198.51.100.77%",
        ])
      ).map((r) => Number(r.hits));
    const before = await hits();
    expect(before).toEqual([12]);
    for (let n = 0; n < 20; n++)
      expect(
        (
          await (n % 2 ? one : two).inject({
            url: "/api/v2/main-page/blocks",
            headers: { "x-forwarded-for": "198.51.100.77" },
          })
        ).statusCode,
      ).toBe(429);
    expect(await hits()).toEqual(before);
  }, 60_000);

  it("expensive requests of many clients together are capped (503 with Retry-After); pages go on beside them", async (ctx) => {
    t = await createTestDb();
    if (!t.url)
      return ctx.skip(
        "needs PostgreSQL (TEST_DATABASE_URL): PGlite has no second session to hold exports with",
      );
    const a = await app(limited({ apiExpensiveConcurrencyTotal: 2 }));
    const known = `0x${"b2".repeat(20)}`;
    await t.db.query("insert into addresses (address, first_block) values ($1, 0)", [
      Buffer.from(known.slice(2), "hex"),
    ]);
    const csv = `/api/v2/addresses/${known}/transactions/csv?from_period=2020-01-01&to_period=2030-01-01`;
    const from = (n: number) => ({ "x-forwarded-for": `198.51.100.${n}` });
    // Exports held in flight: their statements wait for a lock on the tables they read.
    const locker = new pg.Client({ connectionString: t.url });
    await locker.connect();
    closers.push(() => locker.end());
    await locker.query("begin");
    await locker.query("lock table blocks, transactions in access exclusive mode");
    const held: Array<Promise<{ statusCode: number; body: string }>> = [];
    try {
      // inject() sends on its first then(): Promise.resolve starts each now.
      for (const n of [1, 2]) held.push(Promise.resolve(a.inject({ url: csv, headers: from(n) })));
      // Asked outside the locker's transaction: a transaction sees one snapshot of pg_stat_activity.
      const waiting = async () =>
        Number(
          (
            await t!.db.query<{ count: string }>(
              "select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
            )
          )[0]!.count,
        );
      const t0 = Date.now();
      while ((await waiting()) < 2) {
        if (Date.now() - t0 > 20_000) throw new Error("the two exports never reached the lock");
        await new Promise((r) => setTimeout(r, 50));
      }
      // A third client's export, in /api/v2's shape and in /api's: the process is at its total.
      const third = await a.inject({ url: csv, headers: from(3) });
      expect(third.statusCode, third.body).toBe(503);
      expect(third.headers["retry-after"]).toBe("1");
      expect(third.json()).toEqual({
        message: "The server is busy with other exports and filters; please retry",
      });
      const deep = await a.inject({
        url: `/api?module=account&action=txlist&address=${known}&page=3&offset=1000`,
        headers: from(4),
      });
      expect(deep.statusCode, deep.body).toBe(503);
      expect(deep.json()).toMatchObject({ status: "0" });
      expect(deep.body).toContain("The server is busy with other exports and filters; please retry");
      // A page that is not expensive is served beside them.
      const page = await a.inject({ url: "/api/v2/config/backend-version", headers: from(5) });
      expect(page.statusCode).toBe(200);
    } finally {
      await locker.query("rollback");
    }
    for (const r of await Promise.all(held)) expect(r.statusCode, r.body).toBe(200);
    // The slots were given back: the third client is served now.
    const again = await a.inject({ url: csv, headers: from(3) });
    expect(again.statusCode).toBe(200);
  }, 60_000);

  it("a statement timeout answers 503 with Retry-After on /api txlist, /api/v1 CSV and eth-rpc", async (ctx) => {
    t = await createTestDb();
    if (!t.url)
      return ctx.skip("needs PostgreSQL (TEST_DATABASE_URL): PGlite has no second session to lock with");
    const reads = await createPostgresDb(t.url, { statementTimeoutMs: 300 });
    closers.push(() => reads.close());
    const a = await buildApp({
      db: reads,
      config: { bodyLimit: 1e6 },
      logger: false,
      verifier: { ...noVerifier, db: reads } as VerifierApi,
    });
    closers.push(() => a.close());
    const locker = new pg.Client({ connectionString: t.url });
    await locker.connect();
    closers.push(() => locker.end());
    await locker.query("begin");
    await locker.query(
      "lock table indexer_state, transactions, logs, addresses, blocks in access exclusive mode",
    );
    try {
      const address = `0x${"b0".repeat(20)}`;
      const txlist = await a.inject(`/api?module=account&action=txlist&address=${address}`);
      expect(txlist.statusCode, txlist.body).toBe(503);
      expect(txlist.headers["retry-after"]).toBe("1");
      expect(txlist.json()).toMatchObject({ status: "0" });
      expect(JSON.stringify(txlist.json())).toContain("The database did not answer in time; please retry");
      const csv = await a.inject(
        `/api/v1/transactions-csv?address_id=${address}&from_period=2020-01-01&to_period=2030-01-01`,
      );
      expect(csv.statusCode).toBe(503);
      expect(csv.headers["retry-after"]).toBe("1");
      const logs = await a.inject({
        method: "POST",
        url: "/api/eth-rpc",
        headers: { "content-type": "application/json" },
        payload: JSON.stringify({
          jsonrpc: "2.0",
          id: 3,
          method: "eth_getLogs",
          params: [{ address, fromBlock: "0x0", toBlock: "0x10" }],
        }),
      });
      expect(logs.statusCode).toBe(503);
      expect(logs.headers["retry-after"]).toBe("1");
      expect(logs.json()).toMatchObject({ jsonrpc: "2.0", id: 3, error: { code: -32000 } });
    } finally {
      await locker.query("rollback");
    }
    // The review's reproduction (the export's tables locked, the address known): a CSV export reads its header and
    // first rows before answering, so the timeout is a 503 too, not a 200 cut short after the header line.
    const known = `0x${"b1".repeat(20)}`;
    await t.db.query("insert into addresses (address, first_block) values ($1, 0)", [
      Buffer.from(known.slice(2), "hex"),
    ]);
    await locker.query("begin");
    await locker.query("lock table blocks, transactions in access exclusive mode");
    try {
      for (const url of [
        `/api/v1/transactions-csv?address_id=${known}&from_period=2020-01-01&to_period=2030-01-01`,
        `/api/v2/addresses/${known}/transactions/csv?from_period=2020-01-01&to_period=2030-01-01`,
      ]) {
        const csv = await a.inject(url);
        expect(csv.statusCode, `${url}: ${csv.body}`).toBe(503);
        expect(csv.headers["retry-after"]).toBe("1");
        expect(csv.body).toContain("The database did not answer in time; please retry");
      }
    } finally {
      await locker.query("rollback");
    }
    // Unlocked, the same export streams its CSV.
    const ok = await a.inject(
      `/api/v2/addresses/${known}/transactions/csv?from_period=2020-01-01&to_period=2030-01-01`,
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.body.startsWith("TxHash,")).toBe(true);
  }, 60_000);
});
