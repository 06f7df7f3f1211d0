import type { Queryable } from "../db/db.js";
import type { EventBus } from "./bus.js";
import type { ChainEvent } from "./facts.js";

/** The PostgreSQL channel events travel on between processes sharing one database. */
export const EVENTS_CHANNEL = "lookout_live";

export type RelayedEvent = { origin: string; event: ChainEvent };

/**
 * NOTIFY for other processes on the same PostgreSQL database (delivered when the surrounding transaction
 * commits); `bus` names the sender, so its own relay does not deliver the event twice.
 */
export async function notifyProcesses(q: Queryable, bus: EventBus, event: ChainEvent): Promise<void> {
  const message: RelayedEvent = { origin: bus.origin, event };
  await q.query("select pg_notify($1, $2)", [EVENTS_CHANNEL, JSON.stringify(message)]);
}
