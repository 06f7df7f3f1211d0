import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REQUEST_LIMITS } from "../../src/verifier/service/index.js";
import { type ApisEnv, startApisEnv } from "../helpers/verification-apis.js";
import { versionFor } from "../helpers/verify-contracts.js";

const ADDRESS = "0x00000000000000000000000000000000000000aa";
const PRAGMA = "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract A {}\n";

type Sources = Record<string, { content: string }>;
const input = (sources: Sources) =>
  JSON.stringify({ language: "Solidity", sources, settings: { optimizer: { enabled: false } } });
// Written as text: a value this deep cannot even be stringified by JSON.stringify.
const deep = (levels: number) =>
  `${input({ "a.sol": { content: PRAGMA } }).slice(0, -1)},"deep":${"[".repeat(levels)}${"]".repeat(levels)}}`;
const manySources = (n: number): Sources =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}.sol`, { content: "" }]));

/** Each hostile input (JSON text), and the words the refusal must contain (the limit it names). */
const CASES: Array<{ name: string; input: string; says: RegExp }> = [
  { name: "NUL in a file name", input: input({ "a\u0000.sol": { content: PRAGMA } }), says: /NUL/ },
  {
    name: "NUL in a source's content",
    input: input({ "a.sol": { content: `${PRAGMA}// x\u0000y\n` } }),
    says: /NUL/,
  },
  {
    name: "JSON nested thousands of levels deep",
    input: deep(5000),
    says: /nested more than 64 levels/,
  },
  {
    name: "too many sources",
    input: input(manySources(REQUEST_LIMITS.sources + 1)),
    says: /limit 2000 sources per input/,
  },
  {
    name: "sources too large",
    input: input({ "a.sol": { content: `${PRAGMA}//${"x".repeat(REQUEST_LIMITS.sourceChars)}` } }),
    says: /characters of source in total/,
  },
];

describe("input hygiene in every verification dialect", () => {
  let env: ApisEnv;
  let version: string;
  beforeAll(async () => {
    env = await startApisEnv();
    version = versionFor(env.compilers, "0.8.26");
  });
  afterAll(async () => {
    await env?.stop();
  });

  const v1 = (
    contracts: unknown[],
    stdInput: string,
    url = "/api/v1/solidity/sources:verify-standard-json",
  ) =>
    env.app.inject({
      method: "POST",
      url,
      payload: { contracts, compiler: version, input: stdInput },
    });

  it.each(CASES)("/api/v1 refuses $name with 400 code 3", async ({ input: i, says }) => {
    const r = await v1([{ chainId: String(env.chain.anvil.chainId), address: ADDRESS }], i);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 3, message: expect.stringMatching(says) });
  });

  it.each(CASES)("Etherscan /api refuses $name with status 0", async ({ input: i, says }) => {
    const r = await env.apis.inject({
      method: "POST",
      url: "/api",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        module: "contract",
        action: "verifysourcecode",
        contractaddress: ADDRESS,
        sourceCode: i,
        codeformat: "solidity-standard-json-input",
        contractname: "a.sol:A",
        compilerversion: version,
      }).toString(),
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ status: "0", result: expect.stringMatching(says) });
  });

  it.each(CASES)(
    "Sourcify /sourcify refuses $name with 400 invalid_parameter",
    async ({ input: i, says }) => {
      const r = await env.apis.inject({
        method: "POST",
        url: `/sourcify/v2/verify/${env.chain.anvil.chainId}/${ADDRESS}`,
        headers: { "content-type": "application/json" },
        payload: `{"stdJsonInput":${i},"compilerVersion":"${version}","contractIdentifier":"a.sol:A"}`,
      });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({
        customCode: "invalid_parameter",
        message: expect.stringMatching(says),
      });
    },
  );

  it("refuses more contracts than the limit in one /api/v1 request, naming it", async () => {
    const contracts = Array.from({ length: REQUEST_LIMITS.contracts + 1 }, () => ({
      chainId: String(env.chain.anvil.chainId),
      address: ADDRESS,
    }));
    const r = await v1(contracts, input({ "a.sol": { content: PRAGMA } }));
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toMatch(/limit 100 contracts per request/);
  });

  it("gives a colon route exactly one path: suffixes and other spellings are 404", async () => {
    const body = input({ "a.sol": { content: PRAGMA } });
    for (const suffix of ["XYZ", "-x", "/x"]) {
      const r = await v1([], body, `/api/v1/solidity/sources:verify-standard-json${suffix}`);
      expect(r.statusCode).toBe(404);
      expect(r.json()).toMatchObject({ code: 5 });
    }
    for (const path of ["sources:verify-multi-partXYZ", "sources:verify-standard-jsonXYZ"]) {
      const r = await v1([], body, `/api/v1/vyper/${path}`);
      expect(r.statusCode).toBe(404);
    }
    const ok = await v1([], body);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ contractVerificationResults: { items: [] } });
  });

  it("lists the colon routes literally in the OpenAPI document, each with a response schema", async () => {
    const doc = (await env.app.inject({ url: "/api/docs/openapi.json" })).json() as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    };
    for (const p of [
      "/api/v1/solidity/sources:verify-standard-json",
      "/api/v1/solidity/sources:verify-multi-part",
      "/api/v1/vyper/sources:verify-standard-json",
      "/api/v1/vyper/sources:verify-multi-part",
    ]) {
      expect(doc.paths[p]?.post?.responses?.["200"]).toBeDefined();
    }
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/api/v1/") && p.includes("{"))).toEqual([]);
    const apisDoc = (await env.apis.inject({ url: "/api/docs/openapi.json" })).json() as typeof doc;
    for (const [path, methods] of Object.entries({ ...doc.paths, ...apisDoc.paths })) {
      if (!/^\/(api\/v1|api$|sourcify)/.test(path)) continue;
      for (const [method, op] of Object.entries(methods)) {
        expect(
          Object.keys(op.responses ?? {}).some((k) => /^2/.test(k)),
          `${method} ${path}`,
        ).toBe(true);
      }
    }
  });
});
