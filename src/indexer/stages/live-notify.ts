import type { Queryable } from "../../db/db.js";
import { LIVE_CHANNEL, type LiveBus, type LiveEvent, type RelayedEvent } from "../../events/bus.js";
import type { IndexerExtension } from "../pipeline/extension.js";

/**
 * Tells the sockets about every committed batch: the range (and the chain head the indexer saw, when `head` tells
 * it) goes to the in-process bus after the commit and, on
 * PostgreSQL, also as a NOTIFY sent inside the batch transaction (so other processes hear of it exactly when it
 * commits, and never of a batch that rolled back). Writes no rows.
 */
export function liveUpdatesExtension(
  bus: LiveBus,
  o: { notify: boolean; head?: () => number | null },
): IndexerExtension {
  let pending: Extract<LiveEvent, { kind: "blocks" }> | null = null;
  return {
    name: "live-updates",
    async write(tx, batch) {
      const first = batch[0];
      const last = batch[batch.length - 1];
      if (!first || !last) return;
      const head = o.head?.() ?? null;
      pending = {
        kind: "blocks",
        from: Number(first.block.number),
        to: Number(last.block.number),
        ...(head !== null ? { head } : {}),
      };
      if (o.notify) await notifyLive(tx, bus, pending);
    },
    async revert() {
      pending = null;
    },
    afterCommit(lastBlock) {
      const ev = pending;
      pending = null;
      if (ev && ev.to === lastBlock) bus.emit(ev);
    },
  };
}

/** NOTIFY for other processes on the same PostgreSQL database (delivered when the surrounding transaction commits). */
export async function notifyLive(q: Queryable, bus: LiveBus, event: LiveEvent): Promise<void> {
  const message: RelayedEvent = { origin: bus.origin, event };
  await q.query("select pg_notify($1, $2)", [LIVE_CHANNEL, JSON.stringify(message)]);
}
