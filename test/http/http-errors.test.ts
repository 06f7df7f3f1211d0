import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import type { InjectOptions } from "fastify";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LiveHub } from "../../src/live/hub.js";
import { type FullApp, startFullApp } from "../helpers/full-app.js";
import { deploy } from "../helpers/tokens.js";

const ADDRESS = "0x0000000000000000000000000000000000000001";

/** One route per API prefix: a GET and a POST route (the POST for body errors). */
const DIALECTS = {
  blockscout: {
    get: `/api/v2/addresses/${ADDRESS}/coin-balance-history`,
    post: `/api/v2/addresses/${ADDRESS}`,
  },
  verifier: { get: "/api/v1/solidity/compilers", post: "/api/v1/solidity/sources:verify-standard-json" },
  etherscan: { get: "/api?module=contract&action=getabi&address=" + ADDRESS, post: "/api" },
  sourcify: { get: `/sourcify/v2/contract/31337/${ADDRESS}`, post: `/sourcify/v2/verify/31337/${ADDRESS}` },
  // eth-bytecode-db's routes live under /api/v2 but speak the verifier's `{code, message}`.
  bytecodeDb: { get: "/api/v2/verifier/solidity/versions", post: "/api/v2/bytecodes/sources:search" },
} as const;
type Dialect = keyof typeof DIALECTS;

type Answer = { status: number; body: any };

/** Whether an answer is an error in the dialect's own shape (never Fastify's `{statusCode, code: "FST_…", error}`). */
function expectDialect(d: Dialect, a: Answer, status: number) {
  expect(a.body).not.toHaveProperty("statusCode");
  expect(JSON.stringify(a.body)).not.toMatch(/FST_/);
  switch (d) {
    case "blockscout":
      if (status === 422) {
        expect(a.status).toBe(422);
        expect(a.body.errors[0]).toMatchObject({
          title: "Invalid value",
          source: { pointer: expect.any(String) },
        });
        expect(a.body.errors[0].detail).toEqual(expect.any(String));
      } else {
        expect(a.status).toBe(status);
        expect(Object.keys(a.body)).toEqual(["message"]);
      }
      return;
    case "verifier":
    case "bytecodeDb":
      expect(a.status).toBe(status === 404 ? 404 : 400);
      expect(a.body).toEqual({ code: status === 404 ? 5 : 3, message: expect.any(String) });
      return;
    case "etherscan":
      // A path nothing serves is Blockscout's 404 in its RPC envelope; other errors keep Etherscan's 200.
      if (status === 404) {
        expect(a.status).toBe(404);
        expect(a.body).toEqual({ status: "0", message: "Not found", result: null });
        return;
      }
      expect(a.status).toBe(200);
      expect(a.body).toEqual({ status: "0", message: "NOTOK", result: expect.any(String) });
      return;
    case "sourcify":
      expect(a.status).toBe(status === 404 ? 404 : 400);
      expect(a.body).toEqual({
        customCode: status === 404 ? "route_not_found" : expect.stringMatching(/^invalid_/),
        message: expect.any(String),
        errorId: expect.any(String),
      });
      return;
  }
}

/** A raw HTTP/1.1 exchange, for what `inject` cannot send (unknown methods, oversized request lines). */
function raw(port: number, request: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const s = connect(port, "127.0.0.1");
    let data = "";
    s.setTimeout(30_000, () => s.destroy(new Error("no answer")));
    s.on("data", (d) => {
      data += d.toString("latin1");
    });
    s.on("error", reject);
    s.on("close", () => {
      const [head, body = ""] = data.split("\r\n\r\n");
      const status = Number(head?.split(" ")[1]);
      try {
        resolve({ status, body: JSON.parse(body) });
      } catch {
        reject(new Error(`not JSON: ${data.slice(0, 300)}`));
      }
    });
    s.write(request);
  });
}

describe("framework errors in each API's own dialect", () => {
  let env: FullApp;
  let port: number;
  beforeAll(async () => {
    env = await startFullApp({ bodyLimit: 64 * 1024 }, { live: { hub: new LiveHub() } });
    await env.app.listen({ port: 0, host: "127.0.0.1" });
    port = (env.app.server.address() as AddressInfo).port;
  }, 300_000);
  afterAll(async () => {
    await env?.stop();
  });

  const inject = async (o: InjectOptions): Promise<Answer> => {
    const r = await env.app.inject(o);
    return { status: r.statusCode, body: r.json() };
  };

  for (const [d, routes] of Object.entries(DIALECTS) as Array<[Dialect, (typeof DIALECTS)[Dialect]]>) {
    const prefix =
      routes.get
        .split("/")
        .slice(0, d === "etherscan" ? 1 : d === "bytecodeDb" ? 4 : 3)
        .join("/") || "/api";
    it(`${d}: bad percent-encoding in the path`, async () => {
      expectDialect(d, await inject({ url: `${prefix}/%E0%A4%A` }), d === "blockscout" ? 422 : 400);
    });
    it(`${d}: unknown route, and a method the route does not serve`, async () => {
      const unknown = await inject({ url: `${prefix}/no-such-route` });
      // Blockscout's /api/v2 answers an unknown GET with 400 "Unknown API v2 action" (its router's catch-all).
      expectDialect(d, unknown, d === "blockscout" ? 400 : 404);
      if (d === "blockscout") expect(unknown.body).toEqual({ message: "Unknown API v2 action" });
      expectDialect(d, await inject({ method: "DELETE", url: routes.get }), 404);
      expectDialect(d, await inject({ method: "PROPFIND" as InjectOptions["method"], url: routes.get }), 404);
    });
    it(`${d}: unsupported media type`, async () => {
      const a = await inject({
        method: "POST",
        url: routes.post,
        headers: { "content-type": "text/xml" },
        payload: "<a/>",
      });
      expectDialect(d, a, d === "blockscout" ? a.status : 415);
      if (d === "blockscout") expect([404, 415]).toContain(a.status);
    });
    it(`${d}: body too large`, async () => {
      const payload = JSON.stringify({ x: "a".repeat(100 * 1024) });
      const a = await inject({
        method: "POST",
        url: routes.post,
        headers: { "content-type": "application/json" },
        payload,
      });
      expectDialect(d, a, 413);
    });
    it(`${d}: malformed JSON body`, async () => {
      const a = await inject({
        method: "POST",
        url: routes.post,
        headers: { "content-type": "application/json" },
        payload: "{",
      });
      expectDialect(d, a, d === "blockscout" ? 422 : 400);
    });
    it(`${d}: unknown HTTP method (rejected by Node's parser)`, async () => {
      expectDialect(
        d,
        await raw(port, `FOO ${routes.get} HTTP/1.1\r\nHost: x\r\n\r\n`),
        d === "blockscout" ? 422 : 400,
      );
    });
    it(`${d}: URI too long`, async () => {
      const url = `${routes.get}${routes.get.includes("?") ? "&" : "?"}pad=${"a".repeat(20_000)}`;
      expectDialect(d, await raw(port, `GET ${url} HTTP/1.1\r\nHost: x\r\n\r\n`), 431);
    });
  }

  it("blockscout: non-finite numbers in the query are a 422, not a 5xx", async () => {
    for (const v of ["Infinity", "-Infinity", "1e400", "NaN", "1.5", "-1", "99999999999999999999"]) {
      const a = await inject({ url: `${DIALECTS.blockscout.get}?block_number=${v}&items_count=50` });
      expectDialect("blockscout", a, 422);
      expect(a.body.errors[0].source.pointer).toBe("/block_number");
    }
  });

  it("a NUL character in a query member is bad input in each dialect, not a database error", async () => {
    // Found by the route fuzz test: PostgreSQL text cannot hold NUL, and the search sent it to a query.
    const q = `q=0x70997970c51812dc3a010c7d01b50e0d17dc79c8%00`;
    expectDialect("blockscout", await inject({ url: `/api/v2/search/quick?${q}` }), 422);
    expectDialect("blockscout", await inject({ url: `/api/v2/tokens?${q}` }), 422);
    expectDialect("etherscan", await inject({ url: "/api?module=contract&action=getabi&address=%00" }), 200);
  });

  it("a NUL character anywhere in a verify-form submission is a 422, not a database error", async () => {
    // Found by probing what the fuzz test's form submissions reach: PostgreSQL's jsonb (the job queue) refuses U+0000.
    const A = env.chain.accounts[0]!.address.toLowerCase() as Address;
    const contract = await deploy(env.chain.anvil.url, A, "TestCoin", [1000n]);
    const form = (fields: Record<string, unknown>) =>
      inject({
        method: "POST",
        url: `/api/v2/smart-contracts/${contract}/verification/via/flattened-code`,
        payload: {
          compiler_version: "v0.8.26+commit.8a97fa7a",
          source_code: "contract A {}",
          contract_name: "A",
          is_optimization_enabled: false,
          ...fields,
        },
      });
    expectDialect("blockscout", await form({ source_code: "contract A {}\u0000" }), 422);
    expectDialect("blockscout", await form({ contract_name: "A\u0000" }), 422);
    expectDialect("blockscout", await form({ compiler_version: "v0.8.26+commit.8a97fa7a\u0000" }), 422);
    // The text "\u0000" (an escape in a Solidity string) is no NUL character: queued.
    expect((await form({ source_code: 'contract A { string s = "\\u0000"; }' })).status).toBe(200);
  });

  it("a multipart body the parser cannot read is a 422 of the verify form, not a 5xx", async () => {
    // Found by the route fuzz test: no boundary, a wrong one, or a body cut short answered 500.
    const part = '--b1\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n';
    for (const [type, payload] of [
      ["multipart/form-data; boundary=b1", part],
      ["multipart/form-data; boundary=b1", `${part}--b1`],
      ["multipart/form-data; boundary=b2", `${part}--b1--\r\n`],
      ["multipart/form-data", `${part}--b1--\r\n`],
    ] as const) {
      const a = await inject({
        method: "POST",
        url: `/api/v2/smart-contracts/${"0x".padEnd(42, "1")}/verification/via/multi-part`,
        headers: { "content-type": type },
        payload,
      });
      expectDialect("blockscout", a, 422);
    }
  });

  it("smart_contract_id and items_count beyond any row are a 422, not a bigint error", async () => {
    for (const v of ["9223372036854775807", "9223372036854775808", "18446744073709551616", "1e100"]) {
      for (const q of [`smart_contract_id=${v}&items_count=50`, `smart_contract_id=1&items_count=${v}`]) {
        const a = await inject({ url: `/api/v2/smart-contracts?${q}` });
        expectDialect("blockscout", a, 422);
      }
    }
    expect((await inject({ url: "/api/v2/smart-contracts?smart_contract_id=5&items_count=50" })).status).toBe(
      200,
    );
  });

  it("Etherscan: an action named after an Object member is an unknown action, not an internal error", async () => {
    for (const action of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) {
      // Blockscout's answer to an action it does not serve: 400 in its RPC envelope.
      for (const module of ["contract", "account"]) {
        const a = await inject({ url: `/api?module=${module}&action=${action}` });
        expect(a).toEqual({ status: 400, body: { status: "0", message: "Unknown action", result: null } });
      }
      const m = await inject({ url: `/api?module=${action}&action=balance` });
      expect(m).toEqual({ status: 400, body: { status: "0", message: "Unknown module", result: null } });
    }
  });

  it("OPTIONS without preflight headers is a 204, as Blockscout's CORSPlug answers it", async () => {
    for (const url of [
      "/api/v2/stats",
      "/api/v1/solidity/compilers",
      "/api",
      "/sourcify/v2/verify/1",
      "/nowhere",
    ]) {
      const r = await env.app.inject({ method: "OPTIONS", url });
      expect(r.statusCode, url).toBe(204);
      expect(r.body, url).toBe("");
    }
  });

  it("a plain GET of the socket path says it is a websocket endpoint", async () => {
    const a = await inject({ url: "/socket/v2/websocket?vsn=2.0.0" });
    expect(a).toEqual({
      status: 400,
      body: { message: "This is a websocket endpoint: connect with Upgrade: websocket" },
    });
  });
});
