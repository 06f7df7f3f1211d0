import { type Channel, Socket } from "phoenix";
import WebSocket from "ws";
import { type App, buildApp } from "../../src/app/http-app.js";
import type { Db } from "../../src/db/db.js";
import type { LiveHub } from "../../src/live/hub.js";
import type { LiveSocketOptions } from "../../src/live/socket.js";

/** The frontend's own socket client (`phoenix`) in Node, over `ws`. */
export function phoenixSocket(baseUrl: string): Socket {
  const socket = new Socket(`${baseUrl.replace(/^http/, "ws")}/socket/v2`, {
    transport: WebSocket,
    // No reconnect storms in tests: a dropped socket stays dropped.
    reconnectAfterMs: () => 60_000,
    rejoinAfterMs: () => 60_000,
  });
  socket.connect();
  return socket;
}

/** Joins `topic`; resolves with the join reply, rejects on an error reply or a timeout. */
export function join(socket: Socket, topic: string, timeoutMs = 20_000): Promise<Channel> {
  const channel = socket.channel(topic);
  return new Promise((resolve, reject) => {
    channel
      .join(timeoutMs)
      .receive("ok", () => resolve(channel))
      .receive("error", (r) => reject(new Error(`join ${topic} refused: ${JSON.stringify(r)}`)))
      .receive("timeout", () => reject(new Error(`join ${topic} timed out`)));
  });
}

/** Collects every payload of `event` on `channel`, and waits for one that `match` accepts. */
export function collect<T = any>(channel: Channel, event: string) {
  const seen: T[] = [];
  const waiters: Array<{ match: (p: T) => boolean; resolve: (p: T) => void }> = [];
  channel.on(event, (p: T) => {
    seen.push(p);
    for (const w of [...waiters])
      if (w.match(p)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(p);
      }
  });
  return {
    seen,
    next(match: (p: T) => boolean = () => true, timeoutMs = 20_000): Promise<T> {
      const found = seen.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const t = setTimeout(
          () => reject(new Error(`no ${event} matched within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          match,
          resolve: (p) => {
            clearTimeout(t);
            resolve(p);
          },
        });
      });
    },
  };
}

/** The API with the socket on `hub`, listening on a free port; its base URL. */
export async function serveSocket(
  db: Db,
  hub: LiveHub,
  o: Omit<LiveSocketOptions, "hub"> = {},
): Promise<{ app: App; base: string }> {
  const app = await buildApp({ db, config: { bodyLimit: 1 << 20 }, logger: false, live: { hub, ...o } });
  await app.listen({ port: 0, host: "127.0.0.1" });
  return { app, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}
