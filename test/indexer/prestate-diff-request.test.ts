import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectCapabilities } from "../../src/chain/capabilities.js";
import { createRpc } from "../../src/chain/rpc.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { deployActivityContracts, mineActivity } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { type JsonRpcCall, type JsonRpcServer, startJsonRpcServer } from "../helpers/json-rpc-server.js";
import { balanceRows, wrongRows } from "../helpers/node-balances.js";

const rpcAt = (url: string) => createRpc({ url, batchSize: 100, timeoutMs: 60_000, retries: 3 });

type TracerConfig = { tracer?: string; tracerConfig?: Record<string, unknown> };
const prestateCall = (call: JsonRpcCall) => {
  const config = call.params?.[1] as TracerConfig | undefined;
  return call.method === "debug_traceBlockByNumber" && config?.tracer === "prestateTracer" ? config : null;
};

/**
 * The prestate diffs are asked for balances and nonces only (chain/prestate-diff.ts): the storage slots and code a
 * node sends otherwise are most of a real block's diff and are never read. A node that refuses the two flags is
 * asked the plain way, with the same balances indexed.
 */
describe("prestate diffs asked for balances and nonces only", () => {
  let chain: TestChain;
  beforeAll(async () => {
    chain = await startTestChain();
    const k = await deployActivityContracts(chain.anvil.url);
    // Token transfers, forwarded calls and contract creations: diffs with storage and code in them.
    await mineActivity(chain.anvil.url, k, { blocks: 6, txPerBlock: 4, seed: 7 });
  }, 300_000);
  afterAll(async () => {
    await chain?.stop();
  });

  /** Indexes the chain through `node`; the balance rows, each checked against the node's own eth_getBalance. */
  async function indexBalances(node: JsonRpcServer) {
    const t: TestDb = await createTestDb();
    try {
      await indexToHead(
        await createTestIndexer(t.db, node.url, {
          extensions: [coinBalanceExtension(), currentBalancesExtension()],
        }),
        t.db,
        node.url,
      );
      const rows = await balanceRows(t.db);
      expect(rows.length).toBeGreaterThan(10);
      expect(await wrongRows(chain.anvil.url, rows)).toEqual([]);
      return rows;
    } finally {
      await t.drop();
    }
  }

  it("asks without storage and code where the node takes the flags, and without the flags where it refuses them", {
    timeout: 300_000,
  }, async () => {
    const url = chain.anvil.url;
    // What anvil sends when asked the plain way: storage and code (so leaving them out is a saving).
    const node = rpcAt(url);
    const head = await node.request<string>("eth_blockNumber", []);
    let plain = "";
    for (let b = 1; b <= Number(head); b++) {
      const d = await node.request("debug_traceBlockByNumber", [
        `0x${b.toString(16)}`,
        { tracer: "prestateTracer", tracerConfig: { diffMode: true } },
      ]);
      plain += JSON.stringify(d);
    }
    expect(plain).toContain('"storage"');
    expect(plain).toContain('"code"');

    // anvil takes the flags: every diff is asked with them and none carries storage or code.
    const seen: string[] = [];
    const lean = await startJsonRpcServer(async (call, forward) => {
      if (!prestateCall(call)) return undefined;
      const a = await forward(call);
      seen.push(JSON.stringify({ config: prestateCall(call), answer: a }));
      return a;
    }, url);
    // A node that refuses them (as a strict decoder of the tracer config would): asked the plain way.
    const refused: string[] = [];
    const strict = await startJsonRpcServer((call) => {
      const config = prestateCall(call);
      if (
        config?.tracerConfig &&
        ("disableStorage" in config.tracerConfig || "disableCode" in config.tracerConfig)
      ) {
        refused.push(call.method);
        return { error: { code: -32602, message: "invalid argument 1: unknown field" } };
      }
      return undefined;
    }, url);
    try {
      expect((await detectCapabilities(rpcAt(lean.url), { traces: "auto" })).prestateDiff).toBe("lean");
      expect((await detectCapabilities(rpcAt(strict.url), { traces: "auto" })).prestateDiff).toBe("full");
      seen.length = 0;
      refused.length = 0;
      const leanRows = await indexBalances(lean);
      expect(seen.length).toBeGreaterThanOrEqual(Number(head));
      for (const s of seen) {
        expect(s).toContain('"disableStorage":true');
        expect(s).toContain('"disableCode":true');
        expect(s).not.toContain('"storage"');
        expect(s).not.toContain('"code"');
      }
      const strictRows = await indexBalances(strict);
      // Asked with the flags once, by the indexer's start-up probe (refused), never after.
      expect(refused.length).toBe(1);
      expect(strictRows).toEqual(leanRows);
    } finally {
      await lean.close();
      await strict.close();
    }
  });
});
