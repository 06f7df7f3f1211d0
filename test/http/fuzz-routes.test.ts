import type { InjectOptions } from "light-my-request";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromBytea } from "../../src/db/bytes.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { FORM_METHODS } from "../../src/verifier-apis/verify-form/parse.js";
import { deployActivityContracts, mineActivity, rpc } from "../helpers/activity.js";
import { explorerExtensions } from "../helpers/explorer-index.js";
import { type FullApp, startFullApp } from "../helpers/full-app.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { deploy, invoke } from "../helpers/tokens.js";

/**
 * Generated requests over every route the app registers (collected with an onRoute hook): path parameters,
 * query strings and bodies from pools of troublesome values (numbers out of range or not numbers, hashes of the
 * wrong length, broken percent-encodings, very long strings, deep JSON, multipart junk) mixed with real values of
 * a small indexed chain, so handlers reach the database. Every answer must be below 500 (the Etherscan API answers
 * 200 always: its internal-error text counts as a 5xx) and come within a bound.
 */

const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? 14);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 2);
/** Per request: a hang never ends; on a loaded two-core machine a request may queue behind others for seconds. */
const BOUND_MS = 30_000;

type Route = { method: string; url: string };

/** mulberry32: a small deterministic generator, so a failure replays with the same FUZZ_SEED. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const hex = (n: number) => Array.from({ length: n }, () => "0123456789abcdef"[int(16)]).join("");
  return { next, int, pick, hex };
}

type Real = {
  addresses: string[];
  txs: string[];
  blocks: string[];
  blockHashes: string[];
  tokens: string[];
  chainId: number;
};

function generators(r: ReturnType<typeof prng>, real: Real) {
  const NUMBERS = [
    "0",
    "1",
    "-1",
    "-0",
    "007",
    "1.5",
    "1e3",
    "1e309",
    "-1e309",
    "Infinity",
    "-Infinity",
    "NaN",
    "9007199254740993",
    "2147483648",
    "-2147483649",
    "9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999999999999999999999999999999999999999999999999999999999999",
    "0x10",
    "0x",
    "0xg",
    "-0x1",
    " 1",
    "+1",
    "1_000",
    "١٢",
  ];
  const ENCODED = [
    "%",
    "%2",
    "%ZZ",
    "%E0%A4%A",
    "%C0%AF",
    "%00",
    "%2F",
    "%252F",
    "%FF%FE",
    "%ED%A0%80",
    "%F0%9F%92%A5",
    "..%2F..%2Fetc%2Fpasswd",
    "%0D%0A",
    "%20",
    "%u0041",
  ];
  const STRINGS = [
    "",
    " ",
    "a",
    "é",
    "💥",
    "null",
    "true",
    "[]",
    "{}",
    "'",
    '"',
    "<script>",
    "\u0000",
    "\uffff",
  ];
  const hashLike = () => {
    const len = r.pick([0, 1, 8, 39, 40, 41, 63, 64, 65, 66, 128]);
    const h = r.hex(len);
    return r.pick([`0x${h}`, h, `0X${h.toUpperCase()}`, `0x${h.replace(/[0-9]/g, "g")}`]);
  };
  const realValue = () =>
    r.pick([
      () => r.pick(real.addresses),
      () => r.pick(real.txs),
      () => r.pick(real.blocks),
      () => r.pick(real.blockHashes),
      () => r.pick(real.tokens),
      () => r.pick(real.addresses).toUpperCase().replace(/^0X/, "0x"),
    ])();
  const long = () => r.pick(["a", "0", "%41", "é", "0x"]).repeat(r.pick([300, 1001, 5000, 20_000]));
  /** A value for a path segment or a query member, already in URL form (invalid encodings left as they are). */
  const urlValue = (): string => {
    const k = r.int(10);
    if (k < 3) return encodeURIComponent(realValue());
    if (k < 5) return encodeURIComponent(r.pick(NUMBERS));
    if (k < 6) return encodeURIComponent(hashLike());
    if (k < 7) return r.pick(ENCODED);
    if (k < 8) return encodeURIComponent(r.pick(STRINGS));
    if (k < 9) return long();
    return `${encodeURIComponent(realValue())}${r.pick(ENCODED)}`;
  };
  const QUERY_NAMES = [
    "block_number",
    "index",
    "items_count",
    "type",
    "filter",
    "q",
    "hash",
    "value",
    "fee",
    "token",
    "topic",
    "transaction_index",
    "id",
    "unique_token",
    "holder_address_hash",
    "fiat_value",
    "address_hash",
    "transaction_hash",
    "token_id",
    "limit",
    "page",
    "offset",
    "sort",
    "order",
    "name",
    "is_name_null",
    "holders_count",
    "market_cap",
    "inserted_at",
    "timestamp",
    "service",
    "module",
    "action",
    "address",
    "contractaddress",
    "guid",
    "chainid",
    "fields",
    "codeformat",
    "compilerversion",
    "sourceCode",
    "contractname",
    "block_hash",
    "batch_index",
    "log_index",
    "vsn",
  ];
  const query = (): string => {
    const parts: string[] = [];
    const n = r.int(5);
    for (let i = 0; i < n; i++) {
      const name = r.next() < 0.9 ? r.pick(QUERY_NAMES) : urlValue();
      const shape = r.int(10);
      if (shape === 0) parts.push(`${name}[]=${urlValue()}&${name}[]=${urlValue()}`);
      else if (shape === 1) parts.push(`${name}[a][b]=${urlValue()}`);
      else if (shape === 2) parts.push(`${name}=${urlValue()}&${name}=${urlValue()}`);
      else if (shape === 3) parts.push(name);
      else if (name === "module")
        parts.push(`module=${r.pick(["contract", "account", "CONTRACT", "", "x"])}`);
      else if (name === "action")
        parts.push(
          `action=${r.pick(["verifysourcecode", "checkverifystatus", "getabi", "getsourcecode", "getcontractcreation", "x"])}`,
        );
      else parts.push(`${name}=${urlValue()}`);
    }
    if (r.next() < 0.05) parts.push(r.pick(ENCODED));
    return parts.length ? `?${parts.join("&")}` : "";
  };

  const KEYS = [
    "compilerVersion",
    "compiler_version",
    "input",
    "files",
    "sourceCode",
    "source_code",
    "contractName",
    "contract_name",
    "metadata",
    "bytecode",
    "bytecodeType",
    "chainId",
    "contractAddress",
    "address",
    "evmVersion",
    "optimizationRuns",
    "libraries",
    "language",
    "stdJsonInput",
    "compilerSettings",
    "creationTransactionHash",
    "module",
    "action",
    "is_optimization_enabled",
    "autodetect_constructor_args",
    "license_type",
    "interfaces",
    "settings",
    "sources",
  ];
  const jsonValue = (depth: number): unknown => {
    const k = r.int(depth > 4 ? 6 : 9);
    if (k === 0) return r.pick(NUMBERS.map(Number).concat([0, -1, 1.5, Number.MAX_SAFE_INTEGER]));
    if (k === 1) return r.pick(STRINGS.concat(NUMBERS));
    if (k === 2) return realValue();
    if (k === 3) return hashLike();
    if (k === 4) return r.pick([null, true, false]);
    if (k === 5)
      return r.next() < 0.1
        ? "x".repeat(r.pick([5000, 200_000]))
        : r.pick(["v0.8.26+commit.8a97fa7a", "0.8.26", "latest", "v9.9.9"]);
    if (k === 6) return Array.from({ length: r.int(4) }, () => jsonValue(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = r.int(6); i > 0; i--) o[r.pick(KEYS)] = jsonValue(depth + 1);
    return o;
  };
  const deep = (n: number, open: string, close: string, inner = "1") =>
    `${open.repeat(n)}${inner}${close.repeat(n)}`;
  type Body = { payload: string | Buffer; contentType?: string };
  const body = (): Body => {
    const k = r.int(14);
    if (k < 5) return { payload: JSON.stringify(jsonValue(0)), contentType: "application/json" };
    if (k === 5)
      return {
        payload: r.pick([
          deep(r.pick([100, 5000, 50_000]), "[", "]"),
          deep(r.pick([100, 5000, 50_000]), '{"a":', "}"),
          deep(3000, '{"input":', "}", '"x"'),
        ]),
        contentType: "application/json",
      };
    if (k === 6)
      return {
        payload: r.pick(["{", "[1,", "\u0000", "", "nul", '{"a":1}{', "\ufeff{}"]),
        contentType: "application/json",
      };
    if (k === 7)
      return { payload: JSON.stringify(r.pick(["a", 1, null, [], true])), contentType: "application/json" };
    if (k === 8 || k === 9) {
      const boundary = `----fuzz${r.hex(8)}`;
      const parts: string[] = [];
      for (let i = r.int(5); i > 0; i--) {
        const name = r.pick(KEYS.concat(["files[0]", "files[1]", "file", ""]));
        if (r.next() < 0.5)
          parts.push(
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${r.pick(["a.sol", "", "../x", "é.sol"])}"\r\nContent-Type: application/octet-stream\r\n\r\n${r.pick(STRINGS.concat([long()]))}\r\n`,
          );
        else
          parts.push(
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(jsonValue(3))}\r\n`,
          );
      }
      const end = r.pick([`--${boundary}--\r\n`, "", `--${boundary}`, "--other--\r\n"]);
      return {
        payload: parts.join("") + end,
        contentType: r.pick([
          `multipart/form-data; boundary=${boundary}`,
          "multipart/form-data",
          `multipart/form-data; boundary=${boundary}x`,
        ]),
      };
    }
    if (k === 10)
      return {
        payload: `${r.pick(KEYS)}=${urlValue()}&${r.pick(KEYS)}=${urlValue()}&module=contract&action=${r.pick(["verifysourcecode", "getabi", "checkverifystatus"])}`,
        contentType: "application/x-www-form-urlencoded",
      };
    if (k === 11)
      return { payload: "<a/>", contentType: r.pick(["text/xml", "text/plain", "application/octet-stream"]) };
    if (k === 12) return { payload: Buffer.from(Array.from({ length: 64 }, () => r.int(256))) };
    return { payload: "" };
  };
  /** A path parameter: half the time a value its route takes (so handlers go past their checks), else any. */
  const param = (name: string): string => {
    if (r.next() < 0.5) {
      if (name === ":method") return r.pick(FORM_METHODS);
      if (/chainId/.test(name)) return String(real.chainId);
      if (/token_id/.test(name)) return r.pick(["1", "2", "5", "0"]);
      if (/address|hash|verificationId/.test(name)) return encodeURIComponent(realValue());
    }
    return urlValue();
  };
  return { urlValue, query, body, param };
}

describe("fuzzed requests over every route", () => {
  let env: FullApp;
  const routes: Route[] = [];
  const real: Real = { addresses: [], txs: [], blocks: [], blockHashes: [], tokens: [], chainId: 0 };

  beforeAll(async () => {
    env = await startFullApp(
      // Production's body limit: deep and large bodies reach the parsers and handlers.
      { bodyLimit: 16 * 1024 * 1024 },
      {
        onRoute: (route) => {
          for (const method of [route.method].flat()) routes.push({ method, url: route.url });
        },
        health: { role: "serve" },
      },
    );
    await env.app.ready();
    // A small chain with a bit of everything: NFTs, ERC-20 transfers, internal calls, creations.
    const url = env.chain.anvil.url;
    const A = env.chain.accounts[0]!.address.toLowerCase() as Address;
    const H = env.chain.accounts[1]!.address.toLowerCase() as Address;
    const nft = await deploy(url, A, "TestNft", ["Fuzz", "FZ", "ipfs://fuzz/"]);
    await invoke(url, A, nft, "TestNft", "mintMany", [H, 1n, 5n]);
    const k = await deployActivityContracts(url);
    await mineActivity(url, k, { blocks: 12, txPerBlock: 3, seed: 5 });
    const indexer = await createTestIndexer(env.db.db, url, {
      extensions: [coinBalanceExtension(), currentBalancesExtension(), ...explorerExtensions()],
    });
    await indexToHead(indexer, env.db.db, url);
    const hexes = async (sql: string) =>
      (await env.db.db.query<{ v: Uint8Array }>(sql)).map((x) => fromBytea(x.v) as string);
    real.addresses = [...(await hexes("select address as v from addresses limit 20")), nft, A, H];
    real.txs = await hexes("select hash as v from transactions order by block_number desc limit 10");
    real.blockHashes = await hexes("select hash as v from blocks order by number desc limit 5");
    const head = Number(await rpc<Hex>(url, "eth_blockNumber"));
    real.blocks = [String(head), String(head - 1), "0", "1"];
    real.tokens = [...(await hexes("select address as v from tokens")), nft];
    real.chainId = env.chain.anvil.chainId;
  }, 300_000);
  afterAll(async () => {
    await env?.stop();
  });

  it("answers every generated request below 500, each within the bound", { timeout: 300_000 }, async () => {
    const r = prng(SEED);
    const g = generators(r, real);
    const unique = [...new Map(routes.map((x) => [`${x.method} ${x.url}`, x])).values()];
    expect(unique.length).toBeGreaterThan(60);

    const requests: InjectOptions[] = [];
    for (let i = 0; i < TOTAL; i++) {
      // Every route in turn, so each gets its share; now and then a method it does not serve.
      const route = unique[i % unique.length]!;
      // The catch-all routes (`*`: CORS preflights) are written without the leading slash.
      const path = (route.url.startsWith("/") ? route.url : `/${route.url}`)
        .split("/")
        .map((seg) =>
          seg.startsWith(":") ? seg.split("|").map(g.param).join("") : seg === "*" ? g.urlValue() : seg,
        )
        .join("/");
      const method = r.next() < 0.03 ? r.pick(["PUT", "DELETE", "PATCH", "POST", "GET"]) : route.method;
      const o: InjectOptions = { method: method as InjectOptions["method"], url: `${path}${g.query()}` };
      if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS") {
        const b = g.body();
        o.payload = b.payload;
        if (b.contentType) o.headers = { "content-type": b.contentType };
      }
      if (method === "OPTIONS")
        o.headers = {
          origin: "http://fuzz.example",
          "access-control-request-method": r.pick(["GET", "POST", "X"]),
        };
      requests.push(o);
    }

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const timings: Array<{ ms: number; what: string }> = [];
    let next = 0;
    const t0 = Date.now();
    const worker = async () => {
      while (next < requests.length) {
        const o = requests[next++]!;
        const started = Date.now();
        const res = await env.app.inject(o);
        const ms = Date.now() - started;
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        timings.push({
          ms,
          what: `${o.method} ${String(o.url).slice(0, 100)} ${typeof o.payload === "string" ? o.payload.slice(0, 60) : ""}`,
        });
        const etherscanInternal =
          res.statusCode === 200 && /Internal error; please try again later/.test(res.body.slice(0, 500));
        if (res.statusCode >= 500 || etherscanInternal || ms > BOUND_MS)
          failures.push(
            `${res.statusCode} in ${ms} ms: ${o.method} ${String(o.url).slice(0, 300)} ${
              typeof o.payload === "string" ? o.payload.slice(0, 200) : ""
            } → ${res.body.slice(0, 300)}`,
          );
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (Date.now() - t0) / 1000;
    console.log(
      `fuzz: ${requests.length} requests over ${unique.length} routes in ${seconds.toFixed(1)} s, ${failures.length} failures (FUZZ_SEED=${SEED}); statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}; slowest:\n${timings
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 5)
        .map((t) => `  ${t.ms} ms ${t.what}`)
        .join("\n")}`,
    );
    expect(failures.slice(0, 30)).toEqual([]);
  });
});
