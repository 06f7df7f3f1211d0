import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { buildApp } from "../../src/app/http-app.js";
import { LiveHub } from "../../src/live/hub.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { collect, join, phoenixSocket } from "../helpers/live.js";

/** A raw socket that joins a topic with the v2 frames, then stops reading (its TCP window fills). */
async function stalledClient(url: string, topic: string): Promise<{ ws: any; closed: Promise<void> }> {
  const ws = new WebSocket(`${url}/socket/v2/websocket?vsn=2.0.0`);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const joined = new Promise((resolve) => ws.once("message", resolve));
  ws.send(JSON.stringify(["1", "1", topic, "phx_join", {}]));
  await joined;
  ws._socket.pause();
  const closed = new Promise<void>((resolve) => ws._socket.once("close", () => resolve()));
  return { ws, closed };
}

describe("a slow socket client", () => {
  let db: TestDb;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const hub = new LiveHub();
  let base: string;

  beforeAll(async () => {
    db = await createTestDb();
    app = await buildApp({
      db: db.db,
      config: { bodyLimit: 1 << 20 },
      logger: false,
      live: { hub, maxBufferedBytes: 256 * 1024 },
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    base = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it("is dropped once its send buffer passes the bound, while a reading client gets every event", async () => {
    const topic = "blocks:new_block";
    const reader = phoenixSocket(base.replace(/^ws/, "http"));
    const events = collect(await join(reader, topic), "new_block");
    const slow = await stalledClient(base, topic);
    expect(hub.subscribers(topic)).toBe(2);

    const payload = { block: { filler: "x".repeat(64 * 1024) } };
    let sent = 0;
    // Bounded: the kernel's socket buffers take a few MB before the server's own buffer grows.
    while (hub.subscribers(topic) > 1 && sent < 2000) {
      hub.broadcast(topic, "new_block", { ...payload, n: sent++ });
      await new Promise((r) => setImmediate(r));
    }
    expect(hub.subscribers(topic), `still subscribed after ${sent} events`).toBe(1);
    // Reading again, the stalled client finds its connection closed by the server.
    slow.ws._socket.resume();
    await slow.closed;
    await events.next((p) => p.n === sent - 1, 60_000);
    expect(events.seen).toHaveLength(sent);
    reader.disconnect();
  }, 120_000);
});
