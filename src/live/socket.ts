import websocket from "@fastify/websocket";
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import type { LiveClient, LiveHub } from "./hub.js";
import { normaliseTopic, type PhoenixFrame, parseFrame, replyFrame } from "./phoenix.js";

export type LiveSocketOptions = {
  hub: LiveHub;
  /** A client whose unsent frames exceed this many bytes is disconnected (it reconnects and refetches). */
  maxBufferedBytes?: number;
  /** Topics one socket may join. */
  maxTopics?: number;
  /** Sockets one client address may hold open at once; more are refused with 429. */
  maxSocketsPerClient?: number;
  /** A socket silent this long (the client heartbeats every 30 s) is closed. */
  idleTimeoutMs?: number;
};

const OPEN = 1;

/** What we use of a `ws` socket (its own types are not installed). */
type WebSocket = {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string | Buffer, options?: { binary: boolean }): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: "message", fn: (data: Buffer, isBinary: boolean) => void): void;
  on(event: "close" | "error", fn: () => void): void;
};

/** The server's websocket support (@fastify/websocket), with the protocol-error handling every socket shares. */
export async function registerWebsocket(app: FastifyInstance): Promise<void> {
  await app.register(websocket, {
    options: { maxPayload: 64 * 1024 },
    // A client's protocol violation (bad mask, invalid UTF-8, a frame over the limit) closes its socket; it is
    // the client's fault, so debug level and no stack (the default logged each at error level).
    errorHandler: (err, socket, req) => {
      req.log.debug({ reason: err.message }, "Websocket closed on a protocol error");
      socket.terminate();
    },
  });
}

/**
 * Blockscout's v2 socket: `/socket/v2/websocket?vsn=2.0.0`, the Phoenix channels protocol (join, leave,
 * heartbeat) over the topics `normaliseTopic` accepts. Broadcasts come from the hub; this only manages membership.
 */
export const liveSocketPlugin: FastifyPluginAsync<LiveSocketOptions> = async (app, o) => {
  const maxBuffered = o.maxBufferedBytes ?? 1 << 20;
  const maxTopics = o.maxTopics ?? 100;
  const idleTimeoutMs = o.idleTimeoutMs ?? 90_000;
  const maxPerClient = o.maxSocketsPerClient ?? 50;
  const sockets = new Map<WebSocket, { lastSeen: number }>();
  const perClient = new Map<string, number>();

  // A deployment of several chains registers the server's websocket support once, above the chains' sockets
  // (registerWebsocket): each registration would route every upgrade again.
  if (!app.hasDecorator("websocketServer")) await registerWebsocket(app);

  // One sweep for every socket rather than a timer each.
  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - idleTimeoutMs;
      for (const [ws, s] of sockets) if (s.lastSeen < cutoff) ws.terminate();
    },
    Math.min(15_000, idleTimeoutMs),
  );
  sweep.unref();
  app.addHook("onClose", async () => {
    clearInterval(sweep);
    for (const ws of sockets.keys()) ws.terminate();
  });

  const handler = (socket: unknown, req: { query: unknown; ip: string }) => {
    const ws = socket as WebSocket;
    // Counted from the upgrade on, so every exit path below gives the slot back on close.
    perClient.set(req.ip, (perClient.get(req.ip) ?? 0) + 1);
    ws.on("close", () => {
      const n = (perClient.get(req.ip) ?? 1) - 1;
      if (n > 0) perClient.set(req.ip, n);
      else perClient.delete(req.ip);
    });
    const q = req.query;
    const vsn = typeof q === "object" && q !== null && "vsn" in q ? q.vsn : undefined;
    if (vsn !== undefined && vsn !== "2.0.0") {
      ws.close(1003, "only vsn=2.0.0 is supported");
      return;
    }
    const state = { lastSeen: Date.now() };
    sockets.set(ws, state);
    const joined = new Set<string>();
    const client: LiveClient = {
      send(frame) {
        if (ws.readyState !== OPEN) return;
        // A client that does not read is dropped, never waited for.
        if (ws.bufferedAmount > maxBuffered) {
          ws.terminate();
          return;
        }
        ws.send(frame, { binary: false });
      },
    };
    const reply = (f: PhoenixFrame, status: "ok" | "error", response?: Record<string, unknown>) =>
      client.send(replyFrame(f, status, response));

    ws.on("message", (data, isBinary) => {
      state.lastSeen = Date.now();
      if (isBinary) return;
      const f = parseFrame(data.toString());
      if (!f) return;
      if (f.topic === "phoenix" && f.event === "heartbeat") return reply(f, "ok");
      if (f.event === "phx_join") {
        const t = normaliseTopic(f.topic);
        if ("reason" in t) return reply(f, "error", { reason: t.reason });
        if (!joined.has(t.topic) && joined.size >= maxTopics)
          return reply(f, "error", { reason: "too many topics" });
        joined.add(t.topic);
        o.hub.join(t.topic, client);
        reply(f, "ok");
        o.hub.joined(t.topic, client);
        return;
      }
      const t = normaliseTopic(f.topic);
      const topic = "topic" in t ? t.topic : f.topic;
      if (f.event === "phx_leave") {
        joined.delete(topic);
        o.hub.leave(topic, client);
        return reply(f, "ok");
      }
      return reply(f, "error", { reason: joined.has(topic) ? "unmatched event" : "unmatched topic" });
    });
    ws.on("close", () => {
      sockets.delete(ws);
      for (const t of joined) o.hub.leave(t, client);
      joined.clear();
    });
    ws.on("error", () => ws.terminate());
  };

  app.route({
    method: "GET",
    url: "/socket/v2/websocket",
    schema: { hide: true },
    // Refused before the upgrade: an HTTP answer the client can read.
    preValidation: async (req, reply) => {
      if ((perClient.get(req.ip) ?? 0) >= maxPerClient)
        return reply
          .code(429)
          .header("retry-after", "10")
          .send({ message: `Too many sockets from this address (at most ${maxPerClient})` });
    },
    // A plain GET (no Upgrade header): say what this path expects instead of an empty 404.
    handler: async (_req, reply) =>
      reply.code(400).send({ message: "This is a websocket endpoint: connect with Upgrade: websocket" }),
    wsHandler: handler,
  });
};
