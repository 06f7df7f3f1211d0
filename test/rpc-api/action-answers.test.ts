import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import type { InjectOptions } from "fastify";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpc, waitForReceipt } from "../helpers/activity.js";
import { build, deployData, versionFor } from "../helpers/verify-contracts.js";
import { type RpcWorld, startRpcWorld } from "./setup.js";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Counter {
    uint256 public count;
    constructor(uint256 start) { count = start; }
    function bump() external { count += 1; }
}
`;
const SETTINGS = { optimizer: { enabled: true, runs: 200 } };

type Media = Record<string, { schema: object }>;
type Responses = Record<string, { description: string; content?: Media }>;
type Operation = { responses: Responses; "x-actions"?: Record<string, { responses: Responses }> };
type Doc = { paths: Record<string, Record<string, Operation>> };

/** One answer as the app gave it. */
type Answer = { status: number; type: string; body: unknown };

/**
 * Actions that cannot answer status "1" on this chain, and why; every other action must give at least one result
 * the document's schema accepts.
 */
const NO_RESULT_HERE: Record<string, string> = {
  "account.pendingtxlist": "no mempool is indexed: always 'No transactions found'",
  "account.token7984tx": "no ERC-7984 token on the test chain",
  "contract.verify_vyper_contract":
    "no Vyper compiler here (its success is the `verify` item, checked there)",
  "contract.checkproxyverification": "the verified contract is no proxy: 'not detected' or pending",
};

/**
 * The OpenAPI document's answer of every `/api` action (x-actions[module.action].responses) against real answers
 * of that action from an anvil chain indexed with the explorer's stages and a verifier with the offline compilers:
 * every action's results and failures validate against what the document says, so it cannot go stale.
 */
describe("each /api action's documented answers validate its real answers", () => {
  let w: RpcWorld;
  let doc: Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const compiled = new Map<object, ValidateFunction>();
  /** Every answer given, by `module.action`. */
  const given = new Map<string, Answer[]>();

  const call = async (o: InjectOptions): Promise<Answer> => {
    const r = await w.app.inject(o);
    const type = String(r.headers["content-type"] ?? "").split(";")[0]!;
    return { status: r.statusCode, type, body: type === "application/json" ? r.json() : r.body };
  };
  /** GET /api with the action's parameters; the answer is kept under its action. */
  const api = async (module: string, action: string, q: Record<string, string> = {}) => {
    const a = await call({ url: `/api?${new URLSearchParams({ module, action, ...q })}` });
    given.set(`${module}.${action}`, [...(given.get(`${module}.${action}`) ?? []), a]);
    return a;
  };
  /** POST /api, form-encoded or multipart, as the verification clients send. */
  const post = async (module: string, action: string, payload: Record<string, string> | FormData) => {
    const form = payload instanceof FormData;
    const a = await call({
      method: "POST",
      url: `/api?module=${module}&action=${action}`,
      ...(form
        ? { payload: payload as unknown as object }
        : {
            headers: { "content-type": "application/x-www-form-urlencoded" },
            payload: new URLSearchParams(payload).toString(),
          }),
    });
    given.set(`${module}.${action}`, [...(given.get(`${module}.${action}`) ?? []), a]);
    return a;
  };
  const result = (a: Answer) => (a.body as { result: unknown }).result;

  /** The errors of an answer against a documented Responses Object, or null when it validates. */
  function check(responses: Responses, a: Answer): string | null {
    const media = responses[String(a.status)]?.content;
    const schema = media?.[a.type]?.schema;
    if (!schema) return `HTTP ${a.status} ${a.type} is not documented`;
    let v = compiled.get(schema);
    if (!v) {
      v = ajv.compile(schema);
      compiled.set(schema, v);
    }
    return v(a.body) ? null : ajv.errorsText(v.errors, { separator: "; " });
  }

  beforeAll(async () => {
    w = await startRpcWorld({ verification: true });
    doc = (await w.app.inject({ url: "/api/docs/openapi.json" })).json();
  }, 300_000);
  afterAll(async () => {
    await w?.stop();
  });

  it("the read actions' results and failures, from the index", async () => {
    const [A, B, C, D] = w.acct as [Address, Address, Address, Address];
    const unknown = "0x00000000000000000000000000000000000000aa";
    const head = Number(await rpc<Hex>(w.url, "eth_blockNumber"));
    const block1 = await rpc<{ timestamp: Hex; miner: Address }>(w.url, "eth_getBlockByNumber", [
      "0x1",
      false,
    ]);
    const day = new Date(Number(block1.timestamp) * 1000).toISOString().slice(0, 10);

    await api("account", "balance", { address: B });
    await api("account", "balance", { address: `${B},${C}` });
    await api("account", "balance", { address: "0x12" });
    await api("account", "balancemulti", { address: `${A},${B},${unknown}` });
    await api("account", "balancemulti", {});
    await api("account", "txlist", { address: B });
    await api("account", "txlist", { address: unknown });
    await api("account", "txlist", { address: B, page: "1000", offset: "1000" });
    await api("account", "txlistinternal", { address: D });
    await api("account", "txlistinternal", { txhash: w.forwardTx });
    await api("account", "txlistinternal", {});
    await api("account", "txlistinternal", { address: unknown });
    await api("account", "txlistinternal", { txhash: "0x12" });
    for (const action of ["tokentx", "tokennfttx", "token1155tx", "token404tx", "token7984tx"]) {
      await api("account", action, { address: B });
      await api("account", action, { contractaddress: w.hybrid });
      await api("account", action, { address: unknown });
      await api("account", action, {});
    }
    await api("account", "tokenbalance", { contractaddress: w.coin, address: B });
    await api("account", "tokenbalance", { address: B });
    await api("account", "tokenlist", { address: B });
    await api("account", "tokenlist", { address: unknown });
    await api("account", "getminedblocks", { address: block1.miner.toLowerCase() });
    await api("account", "getminedblocks", { address: unknown });
    await api("account", "listaccounts", { offset: "3" });
    await api("account", "pendingtxlist", { address: B });
    await api("account", "pendingtxlist", {});
    await api("account", "eth_get_balance", { address: B });
    await api("account", "eth_get_balance", { address: "0x12" });
    await api("account", "eth_get_balance", { address: C, block: "0" });

    await api("logs", "getLogs", { fromBlock: "0", toBlock: "latest", address: w.coin });
    await api("logs", "getLogs", { fromBlock: "0", toBlock: "latest", address: unknown });
    await api("logs", "getLogs", { fromBlock: "0" });

    await api("token", "getToken", { contractaddress: w.coin });
    await api("token", "getToken", { contractaddress: w.multi });
    await api("token", "getToken", { contractaddress: A });
    await api("token", "getTokenHolders", { contractaddress: w.coin });
    await api("token", "getTokenHolders", { contractaddress: "x" });

    for (const action of ["ethsupply", "ethsupplyexchange", "coinsupply", "ethprice", "coinprice"])
      await api("stats", action);
    await api("stats", "tokensupply", { contractaddress: w.coin });
    await api("stats", "tokensupply", { contractaddress: w.coin, cmc: "true" });
    await api("stats", "tokensupply", { contractaddress: A });
    await api("stats", "totalfees", { date: day });
    await api("stats", "totalfees", { date: "2026-13-01" });

    await api("block", "getblockreward", { blockno: "1" });
    await api("block", "getblockreward", { blockno: "99999" });
    await api("block", "getblocknobytime", { timestamp: String(Number(block1.timestamp)), closest: "after" });
    await api("block", "getblocknobytime", { timestamp: "1", closest: "before" });
    await api("block", "getblockcountdown", { blockno: String(head + 100) });
    await api("block", "getblockcountdown", { blockno: "1" });
    await api("block", "eth_block_number", { id: "7" });
    await api("block", "eth_block_number");

    await api("transaction", "gettxinfo", { txhash: w.forwardTx });
    await api("transaction", "gettxinfo", { txhash: `0x${"ab".repeat(32)}` });
    await api("transaction", "gettxreceiptstatus", { txhash: w.revertedTx });
    await api("transaction", "gettxreceiptstatus", { txhash: "0x1" });
    await api("transaction", "getstatus", { txhash: w.revertedTx });
    await api("transaction", "getstatus", { txhash: w.forwardTx });

    await api("contract", "listcontracts", {});
    await api("contract", "listcontracts", { filter: "nope" });
    await api("contract", "getcontractcreation", { contractaddresses: `${w.coin},${w.nft}` });
    await api("contract", "getcontractcreation", { contractaddresses: unknown });
  }, 120_000);

  it("the verification actions' results and failures, with the offline compilers", async () => {
    const v = w.verification!;
    const version = versionFor(v.compilers, "0.8.26");
    const built = await build(v.compilers, version, { "Counter.sol": SOURCE }, SETTINGS);
    const out = await v.compilers.compile({
      language: "Solidity",
      version,
      input: {
        language: "Solidity",
        sources: { "Counter.sol": { content: SOURCE } },
        settings: { ...SETTINGS, outputSelection: { "*": { "*": ["metadata"] } } },
      },
    });
    const metadata = (out.contracts as Record<string, Record<string, { metadata: string }>>)["Counter.sol"]!
      .Counter!.metadata;
    const deployOne = async () => {
      const hash = await rpc<Hex>(w.url, "eth_sendTransaction", [
        { from: w.acct[0], data: deployData(built.Counter!, [7n]), gas: "0x1c9c380" },
      ]);
      return (await waitForReceipt(w.url, hash)).contractAddress!.toLowerCase() as Address;
    };
    // One deployment per way of verifying (a copy of verified code would be verified on sight otherwise).
    const [viaEtherscan, viaVerify, viaSourcify, unverified] = [
      await deployOne(),
      await deployOne(),
      await deployOne(),
      await deployOne(),
    ];
    await w.sync();

    const submitted = await post("contract", "verifysourcecode", {
      contractaddress: viaEtherscan,
      sourceCode: SOURCE,
      codeformat: "solidity-single-file",
      contractname: "Counter",
      compilerversion: version,
      optimizationUsed: "1",
      runs: "200",
      constructorArguements: "0".repeat(63) + "7",
    });
    expect(submitted.body).toMatchObject({ status: "1" });
    const guid = String(result(submitted));
    // checkverifystatus waits for the job a little itself; poll until it settles.
    let status = await api("contract", "checkverifystatus", { guid });
    while (result(status) === "Pending in queue")
      status = await api("contract", "checkverifystatus", { guid });
    expect(result(status)).toBe("Pass - Verified");
    await api("contract", "checkverifystatus", { guid: "0000" });
    await post("contract", "verifysourcecode", { contractaddress: viaEtherscan });

    await api("contract", "getabi", { address: viaEtherscan });
    await api("contract", "getabi", { address: unverified });
    await api("contract", "getabi", { address: "0x12" });
    await api("contract", "getsourcecode", { address: viaEtherscan });
    await api("contract", "getsourcecode", { address: unverified });
    await api("contract", "listcontracts", { filter: "verified" });
    await api("contract", "getcontractcreation", { contractaddresses: `${viaEtherscan},${unverified}` });

    const published = await post("contract", "verify", {
      addressHash: viaVerify,
      name: "Counter",
      compilerVersion: version,
      optimization: "true",
      optimizationRuns: "200",
      contractSourceCode: SOURCE,
    });
    expect(published.body).toMatchObject({ status: "1" });
    await post("contract", "verify", { name: "Counter" });
    const files = new FormData();
    files.set("addressHash", viaSourcify);
    files.set("files[0]", new Blob([SOURCE]), "Counter.sol");
    files.set("files[1]", new Blob([metadata]), "metadata.json");
    expect((await post("contract", "verify_via_sourcify", files)).body).toMatchObject({ status: "1" });
    await post("contract", "verify_via_sourcify", { addressHash: unverified });
    await post("contract", "verify_vyper_contract", {
      addressHash: unverified,
      name: "Counter",
      compilerVersion: "v0.3.10+commit.91361694",
      contractSourceCode: "# not compiled here",
    });
    await post("contract", "verify_vyper_contract", {});

    const proxy = await api("contract", "verifyproxycontract", { address: viaEtherscan });
    expect(proxy.body).toMatchObject({ status: "1" });
    await api("contract", "verifyproxycontract", { address: unverified });
    await api("contract", "checkproxyverification", { guid: String(result(proxy)) });
    await api("contract", "checkproxyverification", { guid: "zz" });
  }, 300_000);

  it("every answer validates against x-actions[module.action].responses; every action answered, with a result", () => {
    const op = doc.paths["/api"]!.get!;
    const actions = op["x-actions"]!;
    const problems: string[] = [];
    const withResult = new Set<string>();
    for (const [key, answers] of given) {
      const documented = actions[key.toLowerCase()];
      if (!documented) {
        problems.push(`${key}: not in x-actions`);
        continue;
      }
      for (const a of answers) {
        // The answers every action shares are the operation's own responses.
        const error = check(
          a.status === 200 ? documented.responses : { ...op.responses, ...documented.responses },
          a,
        );
        if (error)
          problems.push(`${key} HTTP ${a.status}: ${error}: ${JSON.stringify(a.body).slice(0, 300)}`);
        const body = a.body as { status?: string; jsonrpc?: string; result?: unknown };
        if (
          a.status === 200 &&
          (body?.status === "1" || (body?.jsonrpc && body.result != null) || a.type === "text/plain")
        )
          withResult.add(key.toLowerCase());
      }
    }
    expect(problems).toEqual([]);
    const keys = Object.keys(actions);
    expect(keys.length).toBeGreaterThanOrEqual(43);
    const answered = new Set([...given.keys()].map((k) => k.toLowerCase()));
    expect(keys.filter((k) => !answered.has(k))).toEqual([]);
    expect(keys.filter((k) => !withResult.has(k) && !Object.hasOwn(NO_RESULT_HERE, k))).toEqual([]);
    // The schemas are closed and typed: an answer with a member added, lost or mistyped does not validate.
    const txlist = given.get("account.txlist")!.find((a) => (a.body as { status: string }).status === "1")!;
    const item = (result(txlist) as Record<string, unknown>[])[0]!;
    const { hash: _lost, ...withoutHash } = item;
    for (const changed of [{ ...item, extra: "1" }, withoutHash, { ...item, blockNumber: 5 }])
      expect(
        check(actions["account.txlist"]!.responses, {
          ...txlist,
          body: { ...(txlist.body as object), result: [changed] },
        }),
      ).not.toBeNull();
  });

  it("the answers every action shares: an unknown module or action, and the operation documents them", async () => {
    const op = doc.paths["/api"]!.get!;
    for (const q of ["module=nope&action=x", "module=account&action=nope", ""]) {
      const a = await call({ url: `/api?${q}` });
      expect(a.status).toBe(400);
      expect(check(op.responses, a)).toBeNull();
    }
  });

  it("the legacy bridges, eth-rpc and health routes answer as their documented responses", async () => {
    const problems: string[] = [];
    const against = async (path: string, method: string, o: InjectOptions) => {
      const a = await call(o);
      const error = check(doc.paths[path]![method]!.responses, a);
      if (error) problems.push(`${method.toUpperCase()} ${path} HTTP ${a.status}: ${error}`);
      return a;
    };
    const legacy = (p: string, q: string) => against(p, "get", { url: `${p}?${q}` });
    await legacy("/api/legacy/block/eth-block-number", "id=3");
    await legacy("/api/legacy/block/get-block-number-by-time", "timestamp=1&closest=after");
    await legacy("/api/legacy/block/get-block-number-by-time", "closest=after");
    await legacy("/api/legacy/logs/get-logs", `fromBlock=0&toBlock=latest&address=${w.coin}`);
    await legacy("/api/legacy/logs/get-logs", "fromBlock=0");
    const rpcCall = (payload: unknown) =>
      against("/api/eth-rpc", "post", { method: "POST", url: "/api/eth-rpc", payload: payload as object });
    await rpcCall({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] });
    await rpcCall([
      { jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [w.acct[1], "latest"] },
      { jsonrpc: "2.0", id: "two", method: "eth_nope", params: [] },
    ]);
    const tooMany = Array.from({ length: 6 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "eth_chainId" }));
    expect((await rpcCall(tooMany)).status).toBe(413);
    await against("/api/health", "get", { url: "/api/health" });
    await against("/api/health/liveness", "get", { url: "/api/health/liveness" });
    await against("/api/health/readiness", "get", { url: "/api/health/readiness" });
    await against("/api/v1/search", "get", { url: "/api/v1/search?q=Test" });
    expect(problems).toEqual([]);
  });
});
