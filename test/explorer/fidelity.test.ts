import { readFileSync } from "node:fs";
import { type Address, encodeFunctionData, getAddress, type Hex, toFunctionSelector, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../src/app/http-app.js";
import { migrate } from "../../src/db/migrate.js";
import type { Indexer } from "../../src/indexer/pipeline/runtime.js";
import { automaticVerificationExtension } from "../../src/indexer/stages/auto-verify/extension.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { createProxiesExtension } from "../../src/indexer/stages/proxies/extension.js";
import { packagePath } from "../../src/util/package-root.js";
import type { CompilerRegistry } from "../../src/verifier/compilers/index.js";
import { rpc, waitForReceipt } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { explorerExtensions, recomputedCounters, storedCounters } from "../helpers/explorer-index.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { deploy as deployToken, invoke } from "../helpers/tokens.js";
import { buildVerifierApp, offlineVerifierCompilers } from "../helpers/verify.js";
import { type Built, build, deployData, standardJsonText, versionFor } from "../helpers/verify-contracts.js";

const SOURCES = { "Fidelity.sol": readFileSync(packagePath("test/contracts/Fidelity.sol"), "utf8") };
const SETTINGS = { optimizer: { enabled: true, runs: 200 } };
/** Blockscout renders its utc_datetime_usec fields with six fractional digits. */
const USEC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
const TIME_KEYS = new Set(["timestamp", "block_timestamp", "verified_at", "gas_price_updated_at"]);

type Receipt = {
  status: Hex;
  gasUsed: Hex;
  contractAddress: Address | null;
  to: Address | null;
  from: Address;
};

/**
 * Values mean what Blockscout's mean (issue 29, review part B.3): counters, gas usage, decoded method ids and
 * revert reasons, zero balances, a constructor self-destruct, timestamps, the contracts list's members. Every
 * expectation is checked against the node where the node can tell.
 */
describe("explorer values as Blockscout means them (against anvil)", () => {
  let chain: TestChain;
  let t: TestDb;
  let app: App;
  let indexer: Indexer;
  let compilers: CompilerRegistry;
  let url: string;
  let A: Address;
  let B: Address;
  let C: Address;
  let built: Record<string, Built>;
  let splitter: Address;
  let kamikaze: Address;
  let multi: Address;
  let coin: Address;
  /** Holds only tokens: seen by the index, never a coin balance change. */
  const tokenOnly = "0x00000000000000000000000000000000000f1de1" as Address;
  const tx: Record<string, Hex> = {};
  const toSplitter: Hex[] = [];

  const get = async (path: string) => {
    const r = await app.inject({ url: path });
    return { status: r.statusCode, body: r.json() as any };
  };
  const send = async (o: { from: Address; to?: Address; data?: Hex; value?: bigint; gas?: bigint }) => {
    const hash = await rpc<Hex>(url, "eth_sendTransaction", [
      {
        from: o.from,
        ...(o.to ? { to: o.to } : {}),
        ...(o.data ? { data: o.data } : {}),
        ...(o.value ? { value: toHex(o.value) } : {}),
        gas: toHex(o.gas ?? 3_000_000n),
      },
    ]);
    await waitForReceipt(url, hash);
    return hash;
  };
  const receipt = (h: Hex) => rpc<Receipt>(url, "eth_getTransactionReceipt", [h]);
  const call = (fn: string, args: unknown[]) =>
    encodeFunctionData({ abi: built.Splitter!.abi, functionName: fn, args });

  beforeAll(async () => {
    chain = await startTestChain();
    url = chain.anvil.url;
    [A, B, C] = chain.accounts.map((a) => a.address.toLowerCase() as Address) as [Address, Address, Address];
    t = await createTestDb();
    compilers = await offlineVerifierCompilers();
    app = await buildVerifierApp(t.db, chain, compilers);
    indexer = await createTestIndexer(t.db, url, {
      extensions: [
        coinBalanceExtension(),
        currentBalancesExtension(),
        createProxiesExtension(),
        automaticVerificationExtension(),
        ...explorerExtensions(),
      ],
    });
    const version = versionFor(compilers, "0.8.26");
    built = await build(compilers, version, SOURCES, SETTINGS);
    tx.deploySplitter = await send({ from: A, data: deployData(built.Splitter!) });
    splitter = (await receipt(tx.deploySplitter)).contractAddress!.toLowerCase() as Address;
    tx.kamikaze = await send({ from: A, data: deployData(built.Kamikaze!), value: 5n });
    kamikaze = (await receipt(tx.kamikaze)).contractAddress!.toLowerCase() as Address;
    // Calls from two senders, two of them reverting in the call itself, one in a Panic.
    for (const [from, value] of [
      [B, 1000n],
      [C, 10n],
    ] as const)
      toSplitter.push(await send({ from, to: splitter, value, data: call("split", [A, C]) }));
    tx.fail = await send({ from: B, to: splitter, gas: 200_000n, data: call("fail", ["bad input"]) });
    tx.panic = await send({ from: B, to: splitter, gas: 200_000n, data: call("divide", [1n, 0n]) });
    tx.refuse = await send({ from: C, to: splitter, gas: 200_000n, data: call("refuse", [7n]) });
    toSplitter.push(tx.fail, tx.panic, tx.refuse);
    // An ERC-1155 batch of three ids and a single mint: two token transfers as Blockscout counts them.
    multi = await deployToken(url, A, "Test1155", ["ipfs://x/{id}"]);
    tx.batch = await invoke(url, A, multi, "Test1155", "mintBatch", [B, [1n, 2n, 3n], [5n, 6n, 7n]]);
    tx.single = await invoke(url, A, multi, "Test1155", "mint", [B, 9n, 1n]);
    coin = await deployToken(url, A, "TestCoin", [10n ** 24n]);
    tx.coin = await invoke(url, A, coin, "TestCoin", "transfer", [tokenOnly, 5n]);
    const chainId = String(chain.anvil.chainId);
    const v = await app.inject({
      method: "POST",
      url: "/api/v1/solidity/sources:verify-standard-json",
      payload: {
        contracts: [{ chainId, address: splitter }],
        compiler: version,
        input: standardJsonText(SOURCES, SETTINGS),
      },
    });
    expect(v.json().contractVerificationResults.items[0].status).toBe("FULLY_VERIFIED");
    await indexToHead(indexer, t.db, url);
  }, 240_000);

  afterAll(async () => {
    await app?.close();
    await compilers?.close();
    await t?.drop();
    await chain?.stop();
  });

  it("gas_usage_count: a contract's is the gas of the transactions to it, an account's what it sent (D2)", async () => {
    const receipts = await Promise.all(toSplitter.map(receipt));
    const incoming = receipts.reduce((s, r) => s + BigInt(r.gasUsed), 0n);
    expect(incoming).toBeGreaterThan(0n);
    const c = await get(`/api/v2/addresses/${splitter}/counters`);
    expect(c.body.gas_usage_count).toBe(incoming.toString());
    // B sent three of those and nothing else: an account's gas usage is what it sent.
    const sentByB = receipts
      .filter((r) => r.from.toLowerCase() === B)
      .reduce((s, r) => s + BigInt(r.gasUsed), 0n);
    expect((await get(`/api/v2/addresses/${B}/counters`)).body.gas_usage_count).toBe(sentByB.toString());
  });

  it("transactions_count: a contract's counts the transactions to it, not its creation (D6)", async () => {
    const c = await get(`/api/v2/addresses/${splitter}/counters`);
    expect(c.body.transactions_count).toBe(String(toSplitter.length));
    const list = await get("/api/v2/smart-contracts");
    const item = list.body.items.find((i: any) => i.address.hash === getAddress(splitter));
    expect(item).toMatchObject({ transactions_count: toSplitter.length, reputation: "ok" });
    // The transactions tab counts what its list shows, the creation included, as Blockscout's tab counter does.
    const tabs = await get(`/api/v2/addresses/${splitter}/tabs-counters`);
    const listed = (await get(`/api/v2/addresses/${splitter}/transactions`)).body.items;
    expect(listed.map((i: any) => i.hash)).toContain(tx.deploySplitter);
    expect(tabs.body.transactions_count).toBe(listed.length);
    expect(listed).toHaveLength(toSplitter.length + 1);
  });

  it("token_transfers_count: an ERC-1155 batch is one transfer, as Blockscout keeps it (D6)", async () => {
    const [rows] = await t.db.query<{ n: string }>(
      "select count(*) as n from token_transfers where to_address = $1",
      [Buffer.from(B.slice(2), "hex")],
    );
    expect(Number(rows!.n)).toBe(4);
    const c = await get(`/api/v2/addresses/${B}/counters`);
    expect(c.body.token_transfers_count).toBe("2");
    expect((await get(`/api/v2/addresses/${B}/tabs-counters`)).body.token_transfers_count).toBe(2);
    // The same count the token's own counters give.
    expect((await get(`/api/v2/tokens/${multi}/counters`)).body.transfers_count).toBe("2");
  });

  it("the counters stay equal to a count from scratch with these meanings", async () => {
    const kept = await storedCounters(t.db);
    const fresh = await recomputedCounters(t.db);
    expect(kept.address).toEqual(fresh.address);
  });

  it("method_id without 0x; Panic's parameter errorCode; a custom error decoded with the verified ABI (D5)", async () => {
    const split = (await get(`/api/v2/transactions/${toSplitter[0]}`)).body;
    expect(split.decoded_input).toMatchObject({
      method_id: call("split", [A, C]).slice(2, 10),
      method_call: "split(address a, address b)",
    });
    const fail = (await get(`/api/v2/transactions/${tx.fail}`)).body;
    expect(fail.status).toBe("error");
    expect(fail.revert_reason).toEqual({
      method_id: "08c379a0",
      method_call: "Error(string reason)",
      parameters: [{ name: "reason", type: "string", value: "bad input" }],
    });
    const panic = (await get(`/api/v2/transactions/${tx.panic}`)).body;
    expect(panic.revert_reason).toEqual({
      method_id: "4e487b71",
      method_call: "Panic(uint256 errorCode)",
      parameters: [{ name: "errorCode", type: "uint256", value: "18" }],
    });
    const refuse = (await get(`/api/v2/transactions/${tx.refuse}`)).body;
    expect(refuse.revert_reason).toEqual({
      method_id: toFunctionSelector("Nope(uint256,string)").slice(2),
      method_call: "Nope(uint256 code, string why)",
      parameters: [
        { name: "code", type: "uint256", value: "7" },
        { name: "why", type: "string", value: "not today" },
      ],
    });
    // Lists carry the revert data raw, as Blockscout's.
    const listed = (await get(`/api/v2/addresses/${splitter}/transactions`)).body.items.find(
      (i: any) => i.hash === tx.refuse,
    );
    expect(listed.revert_reason).toEqual({ raw: expect.stringMatching(/^0x[0-9a-f]{8}/) });
    expect(listed.revert_reason.raw.slice(2, 10)).toBe(refuse.revert_reason.method_id);
    // The calldata decoder names the method the same way.
    const decoded = await get(
      `/api/v2/utils/decode-calldata?calldata=${call("split", [A, C])}&address_hash=${splitter}`,
    );
    expect(decoded.body.result.method_id).toBe(call("split", [A, C]).slice(2, 10));
  });

  it("coin_balance is '0' for a seen address whose balance never changed, null for one never seen (D7)", async () => {
    expect(BigInt(await rpc<Hex>(url, "eth_getBalance", [splitter, "latest"]))).toBe(0n);
    for (const a of [splitter, tokenOnly]) {
      const r = await get(`/api/v2/addresses/${a}`);
      expect(r.body.coin_balance, a).toBe("0");
      expect(r.body.block_number_balance_updated_at, a).toEqual(expect.any(Number));
    }
    const never = await get("/api/v2/addresses/0x00000000000000000000000000000000000dead1");
    expect(never.body.coin_balance).toBeNull();
    // An index that does not start at genesis cannot know a balance from before its start: unknown, null.
    await t.db.query("update indexer_state set start_block = 1");
    try {
      expect((await get(`/api/v2/addresses/${tokenOnly}`)).body.coin_balance).toBeNull();
    } finally {
      await t.db.query("update indexer_state set start_block = 0");
    }
  });

  it("a constructor that self-destructs: creation_status 'selfdestructed' on the address route too (D8)", async () => {
    expect(await rpc<Hex>(url, "eth_getCode", [kamikaze, "latest"])).toBe("0x");
    const a = await get(`/api/v2/addresses/${kamikaze}`);
    expect(a.body).toMatchObject({ creation_status: "selfdestructed", is_contract: true });
    expect((await get(`/api/v2/smart-contracts/${kamikaze}`)).body.creation_status).toBe("selfdestructed");
    expect((await get(`/api/v2/addresses/${splitter}`)).body.creation_status).toBe("success");
  });

  it("renders every timestamp with microseconds, .000000Z (D9)", async () => {
    const found: string[] = [];
    const collect = (v: unknown, key = ""): void => {
      if (Array.isArray(v)) for (const x of v) collect(x);
      else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) collect(x, k);
      else if (TIME_KEYS.has(key) && v !== null) found.push(`${key}=${String(v)}`);
    };
    const { body: block } = await get("/api/v2/blocks/1");
    for (const path of [
      "/api/v2/blocks",
      "/api/v2/blocks/1",
      "/api/v2/main-page/blocks",
      "/api/v2/transactions",
      `/api/v2/transactions/${toSplitter[0]}`,
      `/api/v2/transactions/${toSplitter[0]}/logs`,
      `/api/v2/transactions/${toSplitter[0]}/internal-transactions`,
      `/api/v2/addresses/${B}/token-transfers`,
      `/api/v2/addresses/${B}/coin-balance-history`,
      "/api/v2/smart-contracts",
      `/api/v2/smart-contracts/${splitter}`,
      `/api/v2/search?q=${block.hash}`,
      `/api/v2/search?q=${toSplitter[0]}`,
      "/api/v2/stats",
    ]) {
      const before = found.length;
      const r = await get(path);
      expect(r.status, path).toBe(200);
      collect(r.body);
      expect(found.length, `${path} has a timestamp`).toBeGreaterThan(before);
    }
    expect(found.filter((s) => !USEC.test(s.slice(s.indexOf("=") + 1)))).toEqual([]);
  });

  it("the smart-contract object: no sol2uml (false), no self-destruct (D10)", async () => {
    const sc = (await get(`/api/v2/smart-contracts/${splitter}`)).body;
    expect(sc).toMatchObject({ can_be_visualized_via_sol2uml: false, is_self_destructed: false });
  });

  it("an unknown /api/v2 route is Blockscout's 400 'Unknown API v2 action'; a missing entity stays 404 (D12)", async () => {
    expect(await get("/api/v2/no-such-thing")).toEqual({
      status: 400,
      body: { message: "Unknown API v2 action" },
    });
    expect(await get(`/api/v2/addresses/${splitter}/no-such-tab`)).toEqual({
      status: 400,
      body: { message: "Unknown API v2 action" },
    });
    expect((await get(`/api/v2/transactions/0x${"ab".repeat(32)}`)).status).toBe(404);
  });

  // Last: it rewrites the counters.
  it("migration 110 turns counters kept with the old meanings into Blockscout's", async () => {
    // The counters as the stage kept them before: creations counted as transactions, batches per id, no
    // incoming gas (recounted here from the tables, independently of the stage's SQL).
    await t.db.query(`alter table address_counters drop column created_count, drop column gas_used_incoming`);
    await t.db.query(`update address_counters c set transactions_count = o.n from (
        select a, count(distinct hash) as n from (
          select from_address a, hash from transactions
          union all select to_address, hash from transactions where to_address is not null
          union all select contract_address, hash from transactions where contract_address is not null and status <> 0
        ) x group by a) o where c.address = o.a`);
    await t.db.query(`update address_counters c set token_transfers_count = o.n from (
        select a, count(*) as n from (
          select from_address a, block_number, log_index, batch_index from token_transfers
          union select to_address, block_number, log_index, batch_index from token_transfers
        ) x group by a) o where c.address = o.a`);
    await t.db.query("delete from schema_migrations where name = '110_address_counter_meanings.sql'");
    await migrate(t.db);
    const kept = await storedCounters(t.db);
    const fresh = await recomputedCounters(t.db);
    expect(kept.address).toEqual(fresh.address);
    expect((await get(`/api/v2/addresses/${B}/counters`)).body.token_transfers_count).toBe("2");
  });
});
