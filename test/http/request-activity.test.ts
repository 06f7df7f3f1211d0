import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type App, buildApp } from "../../src/app/http-app.js";
import { LiveHub } from "../../src/live/hub.js";
import { RequestActivity } from "../../src/util/request-activity.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { waitUntil } from "../helpers/wait.js";

/** The HTTP app's count of requests in flight, which the indexer's history gives way to in `lookout start`. */
describe("requests in flight, as the HTTP app counts them", () => {
  let t: TestDb;
  let app: App;
  let port: number;
  const requests = new RequestActivity();
  beforeAll(async () => {
    t = await createTestDb();
    app = await buildApp({
      db: t.db,
      config: { bodyLimit: 1e6 },
      logger: false,
      live: { hub: new LiveHub() },
      requestActivity: requests,
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it("counts a request from its headers until it is answered, or until its client goes away", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] });
    const open = () =>
      request({
        host: "127.0.0.1",
        port,
        path: "/api/eth-rpc",
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      });
    const answered = open();
    const status = new Promise<number>((resolve, reject) => {
      answered.on("response", (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      answered.on("error", reject);
    });
    answered.write(body.slice(0, -1));
    await waitUntil("the request counted", () => requests.busy);
    answered.end(body.slice(-1));
    expect(await status).toBeGreaterThan(0);
    expect(requests.busy).toBe(false);

    const abandoned = open();
    abandoned.on("error", () => {});
    abandoned.write(body.slice(0, -1));
    await waitUntil("the request counted", () => requests.busy);
    abandoned.destroy();
    await waitUntil("the abandoned request no longer counted", () => !requests.busy);
  });

  it("does not count an open websocket (it is no request waiting for an answer)", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/socket/v2/websocket?vsn=2.0.0`);
    try {
      await new Promise((resolve, reject) => {
        ws.once("open", resolve);
        ws.once("error", reject);
      });
      expect(requests.busy).toBe(false);
      // A request beside it is no longer counted once answered: the open socket holds no count.
      const res = await fetch(`http://127.0.0.1:${port}/api/v2/stats`);
      await res.arrayBuffer();
      await waitUntil("the answered request no longer counted", () => !requests.busy);
    } finally {
      ws.close();
    }
  });
});
