import { request } from "node:http";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { readState } from "../../src/chain-store/checkpoint.js";
import type { Db } from "../../src/db/db.js";
import type { IndexerExtension } from "../../src/indexer/pipeline/extension.js";
import type { Indexer } from "../../src/indexer/pipeline/runtime.js";
import { authorizationsExtension } from "../../src/indexer/stages/authorizations/extension.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { blockRewardsExtension } from "../../src/indexer/stages/block-rewards/extension.js";
import { countersExtension } from "../../src/indexer/stages/counters/extension.js";
import { internalTransactionsExtension } from "../../src/indexer/stages/internal-transactions/extension.js";
import { createProxiesExtension } from "../../src/indexer/stages/proxies/extension.js";
import { createTokensExtension } from "../../src/indexer/stages/tokens/extension.js";
import { withdrawalsExtension } from "../../src/indexer/stages/withdrawals/extension.js";
import { RequestActivity } from "../../src/util/request-activity.js";
import { type ActivityContracts, deployActivityContracts, mineActivity, rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { EXPLORER_TABLES, recomputedCounters, storedCounters } from "../helpers/explorer-index.js";
import { CORE_TABLES, createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";
import { waitUntil } from "../helpers/wait.js";

/** The production stages that write rows, in production order (no background workers, no sockets). */
function stages(): IndexerExtension[] {
  return [
    coinBalanceExtension(),
    currentBalancesExtension(),
    createTokensExtension(),
    createProxiesExtension(),
    authorizationsExtension(),
    internalTransactionsExtension(),
    withdrawalsExtension(),
    blockRewardsExtension(),
    countersExtension(),
  ];
}

const TABLES = [
  ...CORE_TABLES,
  ...EXPLORER_TABLES,
  "coin_balance_changes",
  "address_coin_balances",
  "tokens",
  "token_instances",
  "token_holdings",
  "token_fungible_balances",
  "token_erc721_balances",
  "address_proxies",
  "transaction_authorizations",
];

/**
 * A stage of the test that writes nothing: it records which batches were written (and whether as history), and
 * holds the fetch of blocks below `gateBelow` (history) at a gate the test opens, so the order of events is a
 * condition, not a race.
 */
function recorder(gateBelow = Number.POSITIVE_INFINITY) {
  const batches: Array<{ from: number; to: number; history: boolean }> = [];
  /** The blocks below `gateBelow` that reached the gate. */
  const atGate = new Set<number>();
  let open: () => void = () => {};
  let gate: Promise<void> | null = new Promise<void>((r) => {
    open = r;
  });
  let crashAfter: number | null = null;
  let onCrash: () => void = () => {};
  const ext: IndexerExtension = {
    id: "test-recorder",
    async afterFetch(_rpc, fetched) {
      if (Number(fetched.block.number) < gateBelow && gate) {
        atGate.add(Number(fetched.block.number));
        await gate;
      }
      return null;
    },
    async write(_tx, batch, ctx) {
      const from = Number(batch[0]!.block.number);
      const to = Number(batch[batch.length - 1]!.block.number);
      if (ctx.history && crashAfter !== null && batches.filter((b) => b.history).length >= crashAfter) {
        onCrash();
        throw new Error("simulated crash in a history batch");
      }
      batches.push({ from, to, history: ctx.history === true });
    },
    async revert() {},
  };
  return {
    ext,
    batches,
    atGate,
    release: () => {
      gate = null;
      open();
    },
    crashAfterHistoryBatches(n: number, then: () => void) {
      crashAfter = n;
      onCrash = then;
    },
  };
}

async function nodeHead(url: string): Promise<{ number: number; hash: Hex }> {
  const b = await rpc<{ number: Hex; hash: Hex }>(url, "eth_getBlockByNumber", ["latest", false]);
  return { number: Number(b.number), hash: b.hash };
}

async function joinedAtHead(db: Db, url: string): Promise<boolean> {
  const [s, head] = await Promise.all([readState(db), nodeHead(url)]);
  return !!s && s.headStart === null && s.lastBlock === head.number && s.lastHash === head.hash;
}

/** A clean sequential index of the node's chain, its tables compared with `db`'s. */
async function expectEqualToCleanIndex(db: Db, url: string): Promise<void> {
  const clean = await createTestDb();
  try {
    await indexToHead(await createTestIndexer(clean.db, url, { extensions: stages() }), clean.db, url);
    // supply_stale marks tokens whose supply the token workers should read again: a hint, not a fact of the chain.
    const strip = (d: Record<string, string[]>) => ({
      ...d,
      tokens: d.tokens!.map((r) => JSON.stringify({ ...JSON.parse(r), supply_stale: null })).sort(),
    });
    expect(strip(await dumpTables(db, TABLES))).toEqual(strip(await dumpTables(clean.db, TABLES)));
    const kept = await storedCounters(db);
    const fresh = await recomputedCounters(db);
    expect(kept).toEqual(fresh);
  } finally {
    await clean.drop();
  }
}

describe("head first: the newest blocks at once, history beside them", () => {
  let chain: TestChain;
  let k: ActivityContracts;
  beforeAll(async () => {
    chain = await startTestChain();
    k = await deployActivityContracts(chain.anvil.url);
    // History mined before the indexer starts.
    await mineActivity(chain.anvil.url, k, { blocks: 60, txPerBlock: 3, seed: 5 });
  }, 300_000);
  afterAll(async () => {
    await chain?.stop();
  });

  async function run(indexer: Indexer) {
    const ac = new AbortController();
    const done = indexer.run(ac.signal);
    done.catch(() => {});
    return { stop: () => ac.abort(), done };
  }

  it("indexes the head before history, reorgs at the head during catch-up, and ends equal to a clean index", {
    timeout: 600_000,
  }, async () => {
    const url = chain.anvil.url;
    const t: TestDb = await createTestDb();
    let app: App | undefined;
    const head = await nodeHead(url);
    // History is every block below the head's first batch of 6.
    const r = recorder(head.number - 5);
    const indexer = await createTestIndexer(t.db, url, {
      batchSize: 6,
      headFirstBlocks: 20,
      extensions: [...stages(), r.ext],
    });
    const running = await run(indexer);
    try {
      app = await buildApp({ db: t.db, config: { bodyLimit: 1e6 }, logger: false });
      // The head block is indexed while no history batch has been written (they wait at the gate).
      await waitUntil(
        "the head block indexed",
        async () => (await readState(t.db))?.lastBlock === head.number,
      );
      expect(r.batches.filter((b) => b.history)).toEqual([]);
      expect(r.batches[0]).toMatchObject({ to: head.number, history: false });
      const state = (await readState(t.db))!;
      expect(state.headStart).toBe(head.number - 5);
      expect(state.historyBlock).toBeNull();

      // The API says history is not complete.
      const status = (await app.inject({ url: "/api/v2/main-page/indexing-status" })).json();
      expect(status.finished_indexing_blocks).toBe(false);
      expect(Number(status.indexed_blocks_ratio)).toBeLessThan(1);
      expect(Number(status.indexed_blocks_ratio)).toBeCloseTo(
        Math.floor((6 / (head.number + 1)) * 100) / 100,
      );
      const stats = (await app.inject({ url: "/api/v2/stats" })).json();
      expect(stats.total_blocks).toBe("6");

      // New blocks at the head, then a reorganisation of the newest three, while history still waits.
      await mineActivity(url, k, { blocks: 4, txPerBlock: 2, seed: 21 });
      const from = chain.accounts[2]!.address;
      const to = chain.accounts[3]!.address;
      await rpc(url, "anvil_reorg", [3, [[{ from, to, value: "0x55" }, 1]]]);
      const reorged = await nodeHead(url);
      await waitUntil("the reorganised head indexed", async () => {
        const s = await readState(t.db);
        return s?.lastBlock === reorged.number && s.lastHash === reorged.hash;
      });
      expect(r.batches.filter((b) => b.history)).toEqual([]);

      // History goes: it catches up and joins the head segment.
      r.release();
      await waitUntil("history joined the head", () => joinedAtHead(t.db, url), 300_000);
      const batches = r.batches.filter((b) => b.history);
      expect(batches[0]!.from).toBe(0);
      const after = (await app.inject({ url: "/api/v2/main-page/indexing-status" })).json();
      expect(after).toMatchObject({ finished_indexing_blocks: true, indexed_blocks_ratio: "1.00" });
      running.stop();
      await running.done;
      await expectEqualToCleanIndex(t.db, url);
    } finally {
      running.stop();
      await running.done.catch(() => {});
      await app?.close();
      await t.drop();
    }
  });

  it("history gives way to an API request in flight, not to the head's batches, and goes on after it", {
    timeout: 600_000,
  }, async () => {
    const url = chain.anvil.url;
    const t: TestDb = await createTestDb();
    // No upper bound on a wait here: history waits as long as the test holds its request.
    const requests = new RequestActivity(3_600_000);
    const app = await buildApp({
      db: t.db,
      config: { bodyLimit: 1e6 },
      logger: false,
      requestActivity: requests,
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const port = (app.server.address() as { port: number }).port;
    const head = await nodeHead(url);
    // History batches record whether a request was in flight when their statements ran.
    const r = recorder(head.number - 5);
    const written: Array<{ history: boolean; busy: boolean }> = [];
    const probe: IndexerExtension = {
      id: "test-pacing-probe",
      async write(tx, _batch, ctx) {
        await tx.query("select 1");
        written.push({ history: ctx.history === true, busy: requests.busy });
      },
      async revert() {},
    };
    const indexer = await createTestIndexer(t.db, url, {
      batchSize: 6,
      fetchConcurrency: 3,
      headFirstBlocks: 20,
      extensions: [...stages(), r.ext, probe],
      pacing: requests,
    });
    const running = await run(indexer);
    // A request held in flight: its headers sent, the last byte of its body not yet (Fastify counts it from its
    // headers on, and answers only once the body is complete).
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] });
    const held = request({
      host: "127.0.0.1",
      port,
      path: "/api/eth-rpc",
      method: "POST",
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
    });
    const answered = new Promise<number>((resolve, reject) => {
      held.on("response", (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      held.on("error", reject);
    });
    answered.catch(() => {});
    try {
      await waitUntil(
        "the head block indexed",
        async () => (await readState(t.db))?.lastBlock === head.number,
      );
      // Every history range in flight (3 of 6 blocks) fetched and held at the gate: the first thing history does
      // once the gate opens is its first batch's transaction.
      await waitUntil("the first history ranges at the gate", () => r.atGate.size === 18);
      held.write(body.slice(0, -1));
      await waitUntil("the request in flight", async () => requests.busy);
      // History may go now (its first range fetched before the request), but the request is in flight: its first
      // batch waits for it, holding the process's turn to write.
      r.release();
      await waitUntil("history waiting for the request", async () => requests.waiting > 0);
      expect(written.filter((w) => w.history)).toEqual([]);
      // The head does not wait: a new block's batch queues behind that history batch, which then goes on at once
      // (and only that one: the next history batch waits for the request again).
      await mineActivity(url, k, { blocks: 1, txPerBlock: 1, seed: 31 });
      const newer = await nodeHead(url);
      await waitUntil(
        "the new head indexed",
        async () => (await readState(t.db))?.lastBlock === newer.number,
      );
      await waitUntil("history waiting for the request again", async () => requests.waiting > 0);
      expect(requests.busy).toBe(true);
      expect(written.filter((w) => w.history)).toEqual([{ history: true, busy: true }]);

      // The request ends: history goes on, to the end, with no request in flight at any of its statements.
      held.end(body.slice(-1));
      await answered;
      expect(requests.busy).toBe(false);
      await waitUntil("history joined the head", () => joinedAtHead(t.db, url), 300_000);
      const history = written.filter((w) => w.history);
      expect(history.length).toBeGreaterThan(2);
      expect(history.slice(1).every((w) => !w.busy)).toBe(true);
      running.stop();
      await running.done;
      await expectEqualToCleanIndex(t.db, url);
    } finally {
      held.destroy();
      running.stop();
      await running.done.catch(() => {});
      await app.close();
      await t.drop();
    }
  });

  it("a crash in the middle of catch-up resumes from both cursors without loss or duplicate", {
    timeout: 600_000,
  }, async () => {
    const url = chain.anvil.url;
    const t: TestDb = await createTestDb();
    const first = recorder();
    const a = await createTestIndexer(t.db, url, {
      batchSize: 5,
      headFirstBlocks: 20,
      extensions: [...stages(), first.ext],
    });
    const ra = await run(a);
    try {
      // Three history batches commit; the fourth dies inside its transaction and the indexer is stopped.
      first.crashAfterHistoryBatches(3, () => ra.stop());
      first.release();
      await ra.done.catch(() => {});
      const s = (await readState(t.db))!;
      expect(s.headStart).not.toBeNull();
      expect(s.historyBlock).toBe(14);
      // A new indexer (a restarted process) reads both cursors and finishes.
      const second = recorder();
      second.release();
      const b = await createTestIndexer(t.db, url, {
        batchSize: 5,
        headFirstBlocks: 20,
        extensions: [...stages(), second.ext],
      });
      const rb = await run(b);
      try {
        await waitUntil("history joined the head", () => joinedAtHead(t.db, url), 300_000);
      } finally {
        rb.stop();
        await rb.done.catch(() => {});
      }
      expect(second.batches.find((x) => x.history)?.from).toBe(15);
      await expectEqualToCleanIndex(t.db, url);
    } finally {
      ra.stop();
      await t.drop();
    }
  });
});
