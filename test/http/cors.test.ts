import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { loadConfig } from "../../src/config/config.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

const ADDRESS = "0x00000000000000000000000000000000000000aa";

describe("CORS", () => {
  let t: TestDb;
  const apps: App[] = [];
  const build = async (env: Record<string, string>) => {
    const config = loadConfig(env);
    const app = await buildApp({ db: t.db, config, logger: false });
    apps.push(app);
    return app;
  };
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await t?.drop();
  });

  it("answers preflights and allows any origin by default on every API", async () => {
    const app = await build({});
    const preflight = await app.inject({
      method: "OPTIONS",
      url: "/api/v2/stats",
      headers: {
        origin: "http://localhost:3000",
        "access-control-request-method": "GET",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    expect(String(preflight.headers["access-control-allow-methods"])).toMatch(/GET/);
    expect(String(preflight.headers["access-control-allow-headers"])).toMatch(/content-type/);

    for (const url of [
      "/api/v2/stats",
      `/api/v2/addresses/${ADDRESS}/coin-balance-history`,
      "/api?module=contract&action=getabi&address=0x1",
      "/health",
    ]) {
      const res = await app.inject({ method: "GET", url, headers: { origin: "http://localhost:3000" } });
      expect(res.headers["access-control-allow-origin"], url).toBe("*");
    }
    const ok = await app.inject({
      method: "GET",
      url: `/api/v2/addresses/${ADDRESS}/coin-balance-history`,
      headers: { origin: "http://localhost:3000" },
    });
    expect(ok.statusCode).toBe(200);
  });

  it("lets the frontend's PATCH through a preflight (refetch metadata), with the methods Blockscout's CORSPlug allows", async () => {
    const app = await build({});
    const preflight = await app.inject({
      method: "OPTIONS",
      url: `/api/v2/tokens/${ADDRESS}/instances/1000/refetch-metadata`,
      headers: {
        origin: "http://localhost:3000",
        "access-control-request-method": "PATCH",
        "access-control-request-headers": "content-type,recaptcha-v2-response",
      },
    });
    expect(preflight.statusCode).toBe(204);
    const allowed = String(preflight.headers["access-control-allow-methods"]).split(/\s*,\s*/);
    for (const m of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) expect(allowed).toContain(m);
    expect(String(preflight.headers["access-control-allow-headers"])).toMatch(/recaptcha-v2-response/);
  });

  it("allows only the configured origins when CORS_ORIGIN lists them", async () => {
    const app = await build({ CORS_ORIGIN: "https://explorer.example, http://localhost:3000" });
    const allowed = await app.inject({
      method: "OPTIONS",
      url: "/api/v2/stats",
      headers: { origin: "https://explorer.example", "access-control-request-method": "GET" },
    });
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers["access-control-allow-origin"]).toBe("https://explorer.example");
    expect(String(allowed.headers.vary)).toMatch(/Origin/);
    const get = await app.inject({
      method: "GET",
      url: `/api/v2/addresses/${ADDRESS}/coin-balance-history`,
      headers: { origin: "http://localhost:3000" },
    });
    expect(get.headers["access-control-allow-origin"]).toBe("http://localhost:3000");
    const other = await app.inject({
      method: "GET",
      url: `/api/v2/addresses/${ADDRESS}/coin-balance-history`,
      headers: { origin: "https://evil.example" },
    });
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
  });
});
