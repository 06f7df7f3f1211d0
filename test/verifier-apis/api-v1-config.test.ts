import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { createRpc } from "../../src/chain/rpc.js";
import { parseChainsConfig, withIndexedChain } from "../../src/config/chains.js";
import type { CompilerRegistry } from "../../src/verifier/compilers/index.js";
import { offlineCompilers } from "../helpers/compilers.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

describe("/api/v1 chains and compilers", () => {
  let t: TestDb;
  let app: App;
  let compilers: CompilerRegistry;
  beforeAll(async () => {
    t = await createTestDb();
    // Offline: the list URLs answer nothing, so the npm-installed solc-js versions are served.
    compilers = await offlineCompilers();
    const chains = withIndexedChain(
      parseChainsConfig(
        JSON.stringify([
          {
            id: 11155111,
            name: "Sepolia",
            rpcUrl: "http://127.0.0.1:1",
            isTestnet: true,
            explorerUrl: "https://eth-sepolia.blockscout.com/",
          },
          { id: "1", name: "Ethereum", rpcUrl: "http://127.0.0.1:2", iconUrl: "https://x.example/icon.png" },
        ]),
        "test",
      ),
      { id: "31337", name: "Local", rpcUrl: "http://127.0.0.1:3" },
    );
    app = await buildApp({
      db: t.db,
      config: { bodyLimit: 1_000_000 },
      logger: false,
      verifier: {
        db: t.db,
        chains: new Map(
          chains.map((c) => [
            c.id,
            { config: c, rpc: createRpc({ url: c.rpcUrl, batchSize: 1, timeoutMs: 1000, retries: 0 }) },
          ]),
        ),
        compilers,
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await compilers?.close();
    await t?.drop();
  });

  it("lists chains in configuration order with the indexed chain present, ids as strings", async () => {
    const r = await app.inject({ url: "/api/v1/chains" });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      chains: [
        { id: "31337", name: "Local", iconUrl: "", isTestnet: true },
        {
          id: "11155111",
          name: "Sepolia",
          iconUrl: "https://eth-sepolia.blockscout.com/assets/favicon/logo-icon.png",
          isTestnet: true,
        },
        { id: "1", name: "Ethereum", iconUrl: "https://x.example/icon.png", isTestnet: false },
      ],
    });
  });

  it("lists the installed solc-js versions offline, newest first, with the EVM versions each accepts", async () => {
    const r = await app.inject({ url: "/api/v1/solidity/compilers" });
    expect(r.statusCode).toBe(200);
    const { compilers: list } = r.json() as { compilers: Array<{ version: string; evmVersions: string[] }> };
    const versions = list.map((c) => c.version);
    for (const v of ["v0.8.26+commit.8a97fa7a", "v0.8.18+commit.87f61d96", "v0.4.26+commit.4563c3fc"])
      expect(versions).toContain(v);
    for (const v of versions) expect(v).toMatch(/^v\d+\.\d+\.\d+\+commit\.[0-9a-f]{8}$/);
    const semver = (v: string) => v.slice(1).split("+")[0]!.split(".").map(Number);
    const sorted = [...versions].sort((a, b) => {
      const [x, y] = [semver(a), semver(b)];
      return y[0]! - x[0]! || y[1]! - x[1]! || y[2]! - x[2]!;
    });
    expect(versions).toEqual(sorted);
    const evm = (v: string) => list.find((c) => c.version === v)!.evmVersions;
    expect(evm("v0.8.18+commit.87f61d96")).toContain("paris");
    expect(evm("v0.8.18+commit.87f61d96")).not.toContain("cancun");
    expect(evm("v0.8.26+commit.8a97fa7a")).toContain("cancun");
    expect(evm("v0.8.26+commit.8a97fa7a").at(-1)).toBe("default");
  });

  it("combines both lists and the chains in /verification/config", async () => {
    const r = await app.inject({ url: "/api/v1/verification/config" });
    const body = r.json() as { chains: unknown[]; solidityCompilers: unknown[]; vyperCompilers: unknown[] };
    expect(body.chains).toHaveLength(3);
    expect(body.solidityCompilers.length).toBeGreaterThan(5);
    expect(Array.isArray(body.vyperCompilers)).toBe(true);
    const vy = await app.inject({ url: "/api/v1/vyper/compilers" });
    expect(vy.statusCode).toBe(200);
    expect(vy.json()).toEqual({ compilers: body.vyperCompilers });
  });

  it("answers unknown /api/v1 routes in its own dialect", async () => {
    const r = await app.inject({ url: "/api/v1/nope" });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ code: 5 });
  });
});
