import type { Socket } from "phoenix";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app/http-app.js";
import { EventBus } from "../../src/events/bus.js";
import type { Indexer } from "../../src/indexer/pipeline/runtime.js";
import { liveNotifyExtension } from "../../src/indexer/stages/live-notify.js";
import { type LiveUpdates, startLiveUpdates } from "../../src/live/index.js";
import { createLogger } from "../../src/util/logger.js";
import { rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { collect, join, phoenixSocket } from "../helpers/live.js";

// Separate indexer and server processes share only the PostgreSQL database: batches reach the socket by NOTIFY.
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "live updates across processes (PostgreSQL LISTEN/NOTIFY)",
  () => {
    let chain: TestChain;
    let db: TestDb;
    let serving: LiveUpdates;
    let indexer: Indexer;
    let app: Awaited<ReturnType<typeof buildApp>>;
    let socket: Socket;

    beforeAll(async () => {
      chain = await startTestChain();
      db = await createTestDb();
      // The "indexer process": its own bus, nobody listening to it in this process.
      const indexerBus = new EventBus();
      indexer = await createTestIndexer(db.db, chain.anvil.url, {
        extensions: [liveNotifyExtension(indexerBus, { notify: true })],
      });
      // The "server process": publisher, hub and the LISTEN relay.
      serving = startLiveUpdates({
        db: db.db,
        databaseUrl: db.url,
        logger: createLogger("silent"),
        serve: true,
      });
      await serving.ready();
      app = await buildApp({
        db: db.db,
        config: { bodyLimit: 1 << 20 },
        logger: false,
        live: { hub: serving.hub },
      });
      await app.listen({ port: 0, host: "127.0.0.1" });
    }, 60_000);
    afterAll(async () => {
      socket?.disconnect();
      await app?.close();
      await serving?.stop();
      await db?.drop();
      await chain?.stop();
    });

    it("delivers new_block for a batch committed by another process", async () => {
      socket = phoenixSocket(`http://127.0.0.1:${(app.server.address() as { port: number }).port}`);
      const blocks = collect(await join(socket, "blocks:new_block"), "new_block");
      await rpc(chain.anvil.url, "evm_mine");
      await indexToHead(indexer, db.db, chain.anvil.url);
      const head = await rpc<{ hash: Hex; number: Hex }>(chain.anvil.url, "eth_getBlockByNumber", [
        "latest",
        false,
      ]);
      const got = await blocks.next((p) => p.block.hash === head.hash);
      expect(got.block.height).toBe(Number(head.number));
    });
  },
);
