import type { Address } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb } from "../helpers/db.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { balanceRows, wrongRows } from "../helpers/node-balances.js";
import { startRacingNode } from "../helpers/racing-node.js";

const _q = (n: number) => `0x${n.toString(16)}`;

describe("coin balances of the fee recipient", () => {
  const chains: TestChain[] = [];
  afterAll(async () => {
    for (const c of chains) await c.stop();
  });

  it("equal the node's balance at each block when the node answers reads of its head with the next block's state", async () => {
    const chain = await startTestChain();
    chains.push(chain);
    const url = chain.anvil.url;
    const [a0, a1, a2, a3, a4] = chain.anvil.accounts.map((a) => a.address);
    // Several blocks with several tipping transfers each, from several senders.
    await rpc(url, "evm_setAutomine", [false]);
    for (let b = 0; b < 4; b++) {
      for (const from of [a1!, a2!, a3!])
        await rpc(url, "eth_sendTransaction", [
          { from, to: a0, value: "0x3e8", maxPriorityFeePerGas: "0x3b9aca00" },
        ]);
      await rpc(url, "evm_mine");
    }
    const node = await startRacingNode(url, { races: 3, tipFrom: a4!, tipTo: a0! });
    const t = await createTestDb();
    try {
      const indexer = await createTestIndexer(t.db, node.url, {
        extensions: [coinBalanceExtension(), currentBalancesExtension()],
      });
      await indexToHead(indexer, t.db, node.url);
      // Head reads may have been raced while indexing; make sure the last blocks mined by the proxy are in too.
      await indexToHead(indexer, t.db, url);
      const rows = await balanceRows(t.db);
      const miner = (
        await rpc<{ miner: Address }>(url, "eth_getBlockByNumber", ["0x1", false])
      ).miner.toLowerCase();
      expect(rows.filter((r) => r.address === miner).length).toBeGreaterThanOrEqual(4);
      expect(await wrongRows(url, rows)).toEqual([]);
    } finally {
      await node.close();
      await t.drop();
    }
  });
  // The same with a real node under a block every second, bursts and a SIGKILL: fee-recipient-soak.test.ts.
});
