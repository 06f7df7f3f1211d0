import type { EventBus } from "../../events/bus.js";
import type { BlocksCommitted } from "../../events/facts.js";
import { notifyProcesses } from "../../events/pg-notify.js";
import type { IndexerExtension } from "../pipeline/extension.js";

/**
 * Tells every committed batch as a `blocks` fact: the range (and the chain head the indexer saw, when `head` tells
 * it) goes to the in-process bus after the commit and, with `notify` (PostgreSQL), also as a NOTIFY sent inside the
 * batch transaction (so other processes hear of it exactly when it commits, and never of a batch that rolled
 * back). History batches (head first) are not told. Writes no rows.
 */
export function liveNotifyExtension(
  bus: EventBus,
  o: { notify: boolean; head?: () => number | null },
): IndexerExtension {
  let pending: BlocksCommitted | null = null;
  return {
    id: "live-notify",
    async write(tx, batch, ctx) {
      // History below the head (head first) is no news for the sockets.
      if (ctx.history) return;
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
      if (o.notify) await notifyProcesses(tx, bus, pending);
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
