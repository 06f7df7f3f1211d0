import pg from "pg";
import type { Logger } from "../util/logger.js";
import type { EventBus } from "./bus.js";
import { EVENTS_CHANNEL, type RelayedEvent } from "./pg-notify.js";

/**
 * LISTENs for the events other processes NOTIFY on the shared PostgreSQL database and re-emits them on this
 * process's bus (one connection per process, not per socket). Reconnects with backoff; returns `stop`.
 */
export function startPgRelay(
  url: string,
  bus: EventBus,
  logger: Logger,
): { ready: Promise<void>; stop(): Promise<void> } {
  let client: pg.Client | null = null;
  let listening!: () => void;
  const ready = new Promise<void>((resolve) => {
    listening = resolve;
  });
  let stopped = false;
  let delay = 500;
  let timer: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on("notification", (n) => {
      if (n.channel !== EVENTS_CHANNEL || !n.payload) return;
      try {
        const m = JSON.parse(n.payload) as RelayedEvent;
        if (m.origin !== bus.origin) bus.emit(m.event);
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
      await c.query(`listen ${EVENTS_CHANNEL}`);
      delay = 500;
      listening();
    } catch (err) {
      logger.warn({ err }, "Live-updates listener cannot connect; retrying");
      retry(c);
    }
  };
  const retry = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    void c.end().catch(() => {});
    if (stopped) return;
    timer = setTimeout(() => void connect(), delay);
    delay = Math.min(delay * 2, 30_000);
  };
  void connect();
  return {
    ready,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
