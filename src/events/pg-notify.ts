import type { Queryable } from "../db/db.js";
import type { EventBus } from "./bus.js";
import type { ChainEvent } from "./facts.js";

/** The PostgreSQL channel events travel on between processes sharing one database. */
export const EVENTS_CHANNEL = "lookout_live";

/**
 * The channel of one chain of a multichain deployment: the first chain's is EVENTS_CHANNEL, a further chain's names
 * its schema, so a process hears each chain's events on that chain's bus only.
 */
export const eventsChannel = (schema: string | null) =>
  schema ? `${EVENTS_CHANNEL}_${schema}` : EVENTS_CHANNEL;

export type RelayedEvent = { origin: string; event: ChainEvent };

/**
 * NOTIFY for other processes on the same PostgreSQL database (delivered when the surrounding transaction
 * commits); `bus` names the sender, so its own relay does not deliver the event twice.
 */
export async function notifyProcesses(q: Queryable, bus: EventBus, event: ChainEvent): Promise<void> {
  const message: RelayedEvent = { origin: bus.origin, event };
  // The transaction's search path tells the chain (db/search-path.ts): a chain schema first, or the first chain's.
  await q.query(
    `select pg_notify($1 || case when current_schema() like 'chain\\_%' then '_' || current_schema() else '' end, $2)`,
    [EVENTS_CHANNEL, JSON.stringify(message)],
  );
}
