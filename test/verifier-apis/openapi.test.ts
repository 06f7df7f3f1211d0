import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { createRpc } from "../../src/chain/rpc.js";
import type { ChainConfig } from "../../src/config/chains.js";
import type { VerifierApi } from "../../src/verifier/api.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

/** The verification front doors' paths in the served OpenAPI document. */
const OURS = [
  /^\/api\/v1\//,
  /^\/api\/v2\/bytecodes\//,
  /^\/api\/v2\/verifier\//,
  /^\/api\/v2\/smart-contracts\/.*verification/,
  /^\/sourcify\//,
  /^\/api$/,
];

type Schema = { properties?: Record<string, unknown>; anyOf?: Schema[]; oneOf?: Schema[] };
type Operation = { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> };

const hasMembers = (s: Schema | undefined): boolean =>
  !!s &&
  (Object.keys(s.properties ?? {}).length > 0 ||
    (s.anyOf ?? s.oneOf ?? []).some((x) => Object.keys(x.properties ?? {}).length > 0));

describe("the verification APIs in the OpenAPI document", () => {
  let t: TestDb;
  let app: App;
  beforeAll(async () => {
    t = await createTestDb();
    const config: ChainConfig = {
      id: "31337",
      name: "Local",
      rpcUrl: "http://127.0.0.1:1",
      isTestnet: true,
      iconUrl: null,
      explorerUrl: null,
      indexed: true,
    };
    const api: VerifierApi = {
      db: t.db,
      chains: new Map([
        [
          config.id,
          { config, rpc: createRpc({ url: config.rpcUrl, batchSize: 1, timeoutMs: 1000, retries: 0 }) },
        ],
      ]),
      compilers: { listSolidity: () => [], listVyper: () => [], resolveVersion: (_l, v) => v },
      verify: async () => ({ kind: "verification", items: [] }),
      jobs: { submit: async () => Promise.reject(new Error("unused")), get: async () => null },
    };
    app = await buildApp({ db: t.db, config: { bodyLimit: 1_000_000 }, logger: false, verifier: api });
    await app.ready();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it("every operation has a 2xx schema with members and a documented 4xx (Etherscan: errors are its 200)", () => {
    const doc = app.swagger() as { paths: Record<string, Record<string, Operation>> };
    const operations = Object.entries(doc.paths)
      // The frontend's CSV exports also live under /api/v1 (`/api/v1/*-csv`): explorer routes, checked with the
      // explorer's document test.
      .filter(([path]) => OURS.some((re) => re.test(path)) && !/^\/api\/v1\/[a-z-]+-csv$/.test(path))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    // Every front door is there: 8 /api/v1, 4 searches, 2 version lists, 5 verify routes, the form's 2,
    // Sourcify's 4, Etherscan's GET and POST.
    expect(operations.length).toBeGreaterThanOrEqual(27);
    const problems: string[] = [];
    for (const { path, method, op } of operations) {
      const responses = Object.entries(op.responses ?? {});
      const ok = responses.filter(([status]) => /^2/.test(status));
      if (!ok.length || !ok.every(([, r]) => hasMembers(r.content?.["application/json"]?.schema)))
        problems.push(`${method.toUpperCase()} ${path}: no 2xx schema with members`);
      // Etherscan answers every error with HTTP 200 and status "0": there is no 4xx to document.
      if (path !== "/api" && !responses.some(([status]) => /^4/.test(status)))
        problems.push(`${method.toUpperCase()} ${path}: no 4xx`);
    }
    expect(problems).toEqual([]);
  });
});
