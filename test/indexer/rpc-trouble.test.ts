import { createServer, request, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ActivityContracts, deployActivityContracts, mineActivity } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb } from "../helpers/db.js";
import { CORE_TABLES, createTestIndexer, dumpTables, indexToHead } from "../helpers/indexer.js";

/** A proxy in front of anvil that fails, drops and delays a share of the calls (deterministic sequence). */
function troubleProxy(target: string): Promise<{
  server: Server;
  url: string;
  stats: { forwarded: number; http500: number; dropped: number; delayed: number };
}> {
  const stats = { forwarded: 0, http500: 0, dropped: 0, delayed: 0 };
  let n = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      n = (n * 7 + 13) % 100;
      if (n < 20) {
        stats.http500++;
        res.writeHead(500).end("upstream trouble");
        return;
      }
      if (n < 28) {
        stats.dropped++;
        req.socket.destroy();
        return;
      }
      const delay = n < 40 ? 300 : 0;
      if (delay) stats.delayed++;
      setTimeout(() => {
        stats.forwarded++;
        const up = request(
          target,
          { method: "POST", headers: { "content-type": "application/json" } },
          (r) => {
            res.writeHead(r.statusCode ?? 502, { "content-type": "application/json" });
            r.pipe(res);
          },
        );
        up.on("error", () => res.writeHead(502).end());
        up.end(Buffer.concat(chunks));
      }, delay);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, stats }),
    ),
  );
}

describe("RPC trouble", () => {
  let chain: TestChain;
  let k: ActivityContracts;
  beforeAll(async () => {
    chain = await startTestChain();
    k = await deployActivityContracts(chain.anvil.url);
    await mineActivity(chain.anvil.url, k, { blocks: 60, txPerBlock: 3, seed: 5 });
  });
  afterAll(async () => {
    await chain?.stop();
  });

  it("converges to the same tables through a proxy that fails, drops and delays calls", async () => {
    const proxy = await troubleProxy(chain.anvil.url);
    const direct = await createTestDb();
    const troubled = await createTestDb();
    try {
      await indexToHead(await createTestIndexer(direct.db, chain.anvil.url), direct.db, chain.anvil.url);
      const indexer = await createTestIndexer(troubled.db, proxy.url, { batchSize: 10 });
      // The proxy may fail the steps themselves: keep stepping as the runtime's loop would.
      for (let i = 0; ; i++) {
        try {
          await indexToHead(indexer, troubled.db, chain.anvil.url);
          break;
        } catch (e) {
          if (i > 50) throw e;
        }
      }
      expect(proxy.stats.http500 + proxy.stats.dropped).toBeGreaterThan(5);
      expect(await dumpTables(troubled.db, CORE_TABLES)).toEqual(await dumpTables(direct.db, CORE_TABLES));
    } finally {
      proxy.server.close();
      await direct.drop();
      await troubled.drop();
    }
  });
});
