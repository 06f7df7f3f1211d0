import pg from "pg";
import type { Logger } from "../util/logger.js";
import type { EventBus } from "./bus.js";
import { EVENTS_CHANNEL, type RelayedEvent } from "./pg-notify.js";

/** One channel's relay on a listener: resolves `ready` once its LISTEN is active. */
export type PgRelay = { ready: Promise<void>; stop(): Promise<void> };

/**
 * One LISTEN connection for a process, shared by every chain of a deployment: each chain's channel is relayed to
 * that chain's bus (a deployment of many chains costs one connection, not one per chain). Reconnects with backoff
 * and LISTENs again on every channel.
 */
export type PgListener = {
  relay(bus: EventBus, channel?: string): PgRelay;
  stop(): Promise<void>;
};

export function createPgListener(url: string, logger: Logger): PgListener {
  type Entry = { bus: EventBus; listening: () => void; ready: Promise<void>; active: boolean };
  const channels = new Map<string, Entry>();
  let client: pg.Client | null = null;
  let connected = false;
  let stopped = false;
  let delay = 500;
  let timer: NodeJS.Timeout | undefined;

  // LISTEN and UNLISTEN one at a time (a client runs one statement at a time).
  let queue: Promise<unknown> = Promise.resolve();
  const statement = (c: pg.Client, sql: string) => {
    const run = queue.then(() => c.query(sql));
    queue = run.catch(() => {});
    return run;
  };
  const listen = async (c: pg.Client, channel: string, e: Entry) => {
    await statement(c, `listen ${channel}`);
    if (!e.active) {
      e.active = true;
      e.listening();
    }
  };
  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    connected = false;
    c.on("notification", (n) => {
      const e = channels.get(n.channel);
      if (!e || !n.payload) return;
      try {
        const m = JSON.parse(n.payload) as RelayedEvent;
        if (m.origin !== e.bus.origin) e.bus.emit(m.event);
      } catch {
        // Not ours.
      }
    });
    c.on("error", (err) => {
      logger.warn({ err: err.message }, "Live-updates listener lost its connection; reconnecting");
      retry(c);
    });
    // A session the server closes without an error message ends quietly: reconnect all the same.
    c.on("end", () => retry(c));
    try {
      await c.connect();
      for (const [channel, e] of channels) await listen(c, channel, e);
      connected = true;
      delay = 500;
    } catch (err) {
      logger.warn({ err }, "Live-updates listener cannot connect; retrying");
      retry(c);
    }
  };
  const retry = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    connected = false;
    void c.end().catch(() => {});
    if (stopped) return;
    timer = setTimeout(() => void connect(), delay);
    delay = Math.min(delay * 2, 30_000);
  };

  return {
    relay(bus, channel = EVENTS_CHANNEL) {
      let listening!: () => void;
      const ready = new Promise<void>((resolve) => {
        listening = resolve;
      });
      const e: Entry = { bus, listening, ready, active: false };
      channels.set(channel, e);
      if (!client && !stopped) void connect();
      else if (client && connected) {
        const c = client;
        listen(c, channel, e).catch(() => retry(c));
      }
      return {
        ready,
        async stop() {
          if (channels.get(channel) !== e) return;
          channels.delete(channel);
          if (client && connected) await statement(client, `unlisten ${channel}`).catch(() => {});
        },
      };
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

/**
 * LISTENs for the events other processes NOTIFY on the shared PostgreSQL database and re-emits them on this
 * process's bus (one connection per process, not per socket): a listener of its own for one channel.
 */
export function startPgRelay(
  url: string,
  bus: EventBus,
  logger: Logger,
  channel: string = EVENTS_CHANNEL,
): PgRelay {
  const listener = createPgListener(url, logger);
  const relay = listener.relay(bus, channel);
  return {
    ready: relay.ready,
    async stop() {
      await relay.stop();
      await listener.stop();
    },
  };
}
