import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { fromBytea, toBytea } from "../../src/db/bytes.js";
import type { IndexerExtension } from "../../src/indexer/pipeline/extension.js";
import { authorizationsExtension } from "../../src/indexer/stages/authorizations/extension.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { blobsExtension } from "../../src/indexer/stages/blobs/extension.js";
import { createProxiesExtension } from "../../src/indexer/stages/proxies/extension.js";
import { deployActivityContracts, mineActivity, rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { EXPLORER_TABLES, explorerExtensions } from "../helpers/explorer-index.js";
import { createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";
import { balanceRows, wrongRows } from "../helpers/node-balances.js";
import { type ReplayNode, startReplayNode } from "../helpers/replay-node.js";

const stages = (): IndexerExtension[] => [
  coinBalanceExtension(),
  currentBalancesExtension(),
  createProxiesExtension(),
  authorizationsExtension(),
  blobsExtension(),
  ...explorerExtensions(),
];
const TABLES = ["blocks", "logs", "contract_creations", "coin_balance_changes", ...EXPLORER_TABLES];

type Tx = Record<string, unknown> & { hash: Hex; type: Hex };
type Receipt = Record<string, unknown> & { transactionHash: Hex; type: Hex };

/**
 * A chain with a transaction type no node sends today (0x55, with members of its own) and a receipt member Lookout
 * does not know: a replay node serves blocks recorded from anvil with those changes. The indexer must go on, keep
 * the unknown members as they came and show the transaction with its type; everything else must be as indexed from
 * the unchanged chain.
 */
describe("a transaction type and receipt members Lookout does not know", () => {
  let chain: TestChain | undefined;
  let recorder: ReplayNode;
  let replay: ReplayNode;
  let before: TestDb;
  let after: TestDb;
  let app: App;
  let target: Hex;

  const INVENTED = {
    sourceChainProof: { root: `0x${"11".repeat(32)}`, depth: 3 },
    feeCurrency: "0x00000000000000000000000000000000000000fe",
  };
  const RECEIPT_EXTRA = { l2Surcharge: "0x2a", batchIndex: 7 };

  beforeAll(async () => {
    chain = await startTestChain();
    const url = chain.anvil.url;
    const k = await deployActivityContracts(url);
    await mineActivity(url, k, { blocks: 8, txPerBlock: 3, seed: 5 });
    // The token transfer of the newest block that has one: its logs must still become a token transfer.
    const head = Number(await rpc<Hex>(url, "eth_blockNumber"));
    for (let n = head; n > 0 && !target; n--) {
      const b = await rpc<{ transactions: Array<{ hash: Hex; to: string | null }> }>(
        url,
        "eth_getBlockByNumber",
        [`0x${n.toString(16)}`, true],
      );
      target = b.transactions.find((t) => t.to?.toLowerCase() === k.token.toLowerCase())?.hash as Hex;
    }
    expect(target).toBeDefined();

    // 1. Indexed from anvil through a recording node; the balances checked against anvil itself.
    recorder = await startReplayNode({ upstream: url });
    before = await createTestDb();
    const first = await createTestIndexer(before.db, recorder.url, { extensions: stages() });
    await indexToHead(first, before.db, recorder.url);
    expect(await wrongRows(url, await balanceRows(before.db))).toEqual([]);
    await recorder.close();
    await chain.stop();
    chain = undefined;

    // 2. The recording replayed, with the target transaction made a type-0x55 one.
    const patchTx = (t: Tx) => {
      if (t.hash !== target) return t;
      const { accessList: _a, chainId: _c, v: _v, r: _r, s: _s, yParity: _y, ...rest } = t;
      return { ...rest, type: "0x55" as Hex, ...INVENTED };
    };
    const patchReceipt = (r: Receipt) =>
      r.transactionHash === target ? { ...r, type: "0x55", ...RECEIPT_EXTRA } : r;
    replay = await startReplayNode({
      recording: recorder.recording,
      patch: (method, _params, result) => {
        if (!result) return result;
        if (method === "eth_getBlockByNumber" || method === "eth_getBlockByHash") {
          const b = result as { transactions: Array<Tx | Hex> };
          b.transactions = b.transactions.map((t) => (typeof t === "string" ? t : patchTx(t)));
        }
        if (method === "eth_getBlockReceipts") return (result as Receipt[]).map(patchReceipt);
        if (method === "eth_getTransactionReceipt") return patchReceipt(result as Receipt);
        if (method === "eth_getTransactionByHash") return patchTx(result as Tx);
        return result;
      },
    });
    after = await createTestDb();
    const second = await createTestIndexer(after.db, replay.url, { extensions: stages() });
    await indexToHead(second, after.db, replay.url);
    app = await buildApp({ db: after.db, config: { bodyLimit: 1e6 }, logger: false });
  }, 240_000);

  afterAll(async () => {
    await app?.close();
    await replay?.close();
    await recorder?.close();
    await before?.drop();
    await after?.drop();
    await chain?.stop();
  });

  it("stores the transaction with its type and the unknown members as they came", async () => {
    const [row] = await after.db.query<{ type: number; unknown_members: unknown; status: number }>(
      "select type, unknown_members, status from transactions where hash = $1",
      [toBytea(target)],
    );
    expect(row).toMatchObject({ type: 0x55, status: 1 });
    expect(row!.unknown_members).toEqual({ transaction: INVENTED, receipt: RECEIPT_EXTRA });
    // Known types carry nothing extra.
    const [others] = await after.db.query<{ n: number }>(
      "select count(*)::int as n from transactions where unknown_members is not null",
    );
    expect(others!.n).toBe(1);
  });

  it("indexes everything else as from the unchanged chain (balances, transfers, counters, frames)", async () => {
    expect(await dumpTables(after.db, TABLES)).toEqual(await dumpTables(before.db, TABLES));
    const strip = async (db: TestDb["db"]) =>
      (
        await db.query<{ hash: Uint8Array; type: number }>(
          "select hash, type from transactions order by hash",
        )
      ).map((r) => ({ hash: fromBytea(r.hash), type: fromBytea(r.hash) === target ? "changed" : r.type }));
    expect(await strip(after.db)).toEqual(await strip(before.db));
  });

  it("shows the transaction with its type in the API", async () => {
    const r = await app.inject({ url: `/api/v2/transactions/${target}` });
    expect(r.statusCode).toBe(200);
    const body = r.json() as any;
    expect(body).toMatchObject({ hash: target, type: 0x55, status: "ok", result: "success" });
    expect(body.token_transfers.length).toBeGreaterThan(0);
    expect(body.fee.value).toMatch(/^[1-9][0-9]*$/);
    const list = await app.inject({ url: "/api/v2/transactions" });
    expect((list.json() as any).items.find((t: any) => t.hash === target)).toMatchObject({ type: 0x55 });
  });
});
