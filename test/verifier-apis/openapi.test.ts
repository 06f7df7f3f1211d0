import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { createRpc } from "../../src/chain/rpc.js";
import type { ChainConfig } from "../../src/config/chains.js";
import { RPC_MODULES } from "../../src/rpc-api/index.js";
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
      // Blockscout's older /api/v1 aliases (search, eth-rpc, gas price oracle, supply) are not verification APIs.
      .filter(
        ([path]) =>
          OURS.some((re) => re.test(path)) &&
          !/^\/api\/v1\/[a-z-]+-csv$/.test(path) &&
          !/^\/api\/v1\/(search|eth-rpc|gas-price-oracle|supply)$/.test(path),
      )
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

  it("describes /api's modules and actions (from the dispatcher's table), its 400 and 503", () => {
    type Param = {
      name: string;
      in: string;
      schema?: { anyOf?: Array<{ const?: string; enum?: string[] }> };
    };
    const doc = app.swagger() as {
      paths: Record<string, Record<string, { parameters?: Param[]; responses?: Record<string, unknown> }>>;
    };
    for (const method of ["get", "post"]) {
      const op = doc.paths["/api"]![method]!;
      const values = (name: string) =>
        (op.parameters ?? [])
          .filter((x) => x.name === name && x.in === "query")
          .flatMap((x) => (x.schema?.anyOf ?? []).flatMap((v) => v.const ?? v.enum ?? []));
      expect(values("module")).toEqual([
        "account",
        "block",
        "contract",
        "logs",
        "stats",
        "token",
        "transaction",
      ]);
      for (const action of [
        "txlist",
        "getsourcecode",
        "verify",
        "verify_via_sourcify",
        "verify_vyper_contract",
      ])
        expect(values("action")).toContain(action);
      expect(Object.keys(op.responses ?? {})).toEqual(expect.arrayContaining(["200", "400", "503"]));
    }
  });

  it("lists each /api action's own parameters (x-actions), and their union as query parameters", () => {
    type Param = {
      name: string;
      in: string;
      required?: boolean;
      schema?: { type?: string; enum?: string[] };
    };
    type Action = { parameters: Param[]; "x-required-one-of"?: string[][] };
    const doc = app.swagger() as {
      paths: Record<string, Record<string, { parameters?: Param[]; "x-actions"?: Record<string, Action> }>>;
    };
    const op = doc.paths["/api"]!.get!;
    const actions = op["x-actions"] ?? {};
    // Every served action has an entry (the dispatcher's table is the source).
    expect(Object.keys(actions).sort()).toEqual(
      Object.entries(RPC_MODULES)
        .flatMap(([m, groups]) => groups.flatMap((g) => Object.keys(g.actions).map((a) => `${m}.${a}`)))
        .sort(),
    );
    const required = (key: string) =>
      (actions[key]?.parameters ?? []).filter((x) => x.required).map((x) => x.name);
    expect(required("account.txlist")).toEqual(["address"]);
    expect(required("block.getblocknobytime")).toEqual(["timestamp", "closest"]);
    expect(required("contract.verifysourcecode")).toEqual(
      expect.arrayContaining(["contractaddress", "sourceCode", "contractname", "compilerversion"]),
    );
    expect(required("stats.ethsupply")).toEqual([]);
    expect(actions["logs.getlogs"]?.["x-required-one-of"]).toEqual([
      ["address", "topic0", "topic1", "topic2", "topic3"],
    ]);
    expect(actions["account.txlist"]?.parameters.find((x) => x.name === "sort")?.schema?.enum).toEqual([
      "asc",
      "desc",
    ]);
    // Swagger UI's form: each action parameter once, optional, saying which actions read it.
    const query = (op.parameters ?? []).filter((x) => x.in === "query");
    const txhash = query.filter((x) => x.name === "txhash");
    expect(txhash).toHaveLength(1);
    expect(txhash[0]!.required).toBeFalsy();
    expect(JSON.stringify(txhash[0])).toContain("transaction.gettxinfo (required)");
  });
});
