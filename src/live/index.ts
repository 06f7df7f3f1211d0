import type { Db } from "../db/db.js";
import { EventBus } from "../events/bus.js";
import type { ChainEvent, TokenChange, VerificationResult } from "../events/facts.js";
import { notifyProcesses } from "../events/pg-notify.js";
import { type PgListener, startPgRelay } from "../events/pg-relay.js";
import type { ExplorerDeps } from "../explorer/deps.js";
import type { IndexerExtension } from "../indexer/pipeline/extension.js";
import { liveNotifyExtension } from "../indexer/stages/live-notify.js";
import type { Logger } from "../util/logger.js";
import { LiveHub } from "./hub.js";
import { type LivePublisher, startLivePublisher } from "./publisher.js";

export { LiveHub } from "./hub.js";

export type LiveUpdates = {
  bus: EventBus;
  hub: LiveHub;
  /**
   * The live-notify stage on this bus (in-process, and by NOTIFY on PostgreSQL), for tests and benchmarks that
   * compose their own stages; `head` tells the chain head the indexer last saw (the indexing status). The roles
   * run it from indexer/stages' list.
   */
  extension(o?: { head?: () => number | null }): IndexerExtension;
  /** Reports a finished verification on `addresses:{hash}` (here and, on PostgreSQL, in other processes). */
  publishVerification(address: string, result: VerificationResult): Promise<void>;
  /** Reports what a token worker changed (total supply, fetched metadata), here and in other processes. */
  publishTokenChange(change: TokenChange): Promise<void>;
  /** Resolves once events of other processes are heard (PostgreSQL LISTEN active; at once without a relay). */
  ready(): Promise<void>;
  /** Resolves when the publisher has nothing in flight (tests, benchmarks). */
  idle(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * The live-updates part: the socket hub and the publisher that turns the bus's events into socket events. With
 * `serve: false` (an indexer-only process) nothing publishes; its batches reach other processes by NOTIFY only.
 */
export function startLiveUpdates(o: {
  db: Db;
  databaseUrl?: string | undefined;
  logger: Logger;
  /** Verified names, tags and media gateways of the explorer objects the socket sends. */
  addressDeps?: Omit<ExplorerDeps, "db">;
  serve: boolean;
  /** The process's event bus (a new one when not given). */
  bus?: EventBus;
  /** The chain's NOTIFY channel (a further chain of a multichain deployment; default: the first chain's). */
  channel?: string;
  /** The process's LISTEN connection, shared by the chains of a deployment (default: one of this part's own). */
  listener?: PgListener;
}): LiveUpdates {
  const bus = o.bus ?? new EventBus();
  const hub = new LiveHub();
  const postgres = o.db.kind === "postgres";
  const publisher: LivePublisher | null = o.serve
    ? startLivePublisher({
        db: o.db,
        bus,
        hub,
        logger: o.logger,
        ...(o.addressDeps ? { addressDeps: o.addressDeps } : {}),
      })
    : null;
  const publish = async (event: ChainEvent) => {
    bus.emit(event);
    if (postgres) await notifyProcesses(o.db, bus, event).catch(() => {});
  };
  const relay =
    o.serve && postgres && o.databaseUrl
      ? o.listener
        ? o.listener.relay(bus, o.channel)
        : startPgRelay(o.databaseUrl, bus, o.logger, o.channel)
      : null;
  return {
    bus,
    hub,
    extension: (x) => liveNotifyExtension(bus, { notify: postgres, ...(x?.head ? { head: x.head } : {}) }),
    publishVerification: (address, result) =>
      publish({ kind: "verification", address: address.toLowerCase(), result }),
    publishTokenChange: (change) => publish(change),
    ready: async () => relay?.ready,
    idle: async () => publisher?.idle(),
    async stop() {
      publisher?.stop();
      await relay?.stop();
    },
  };
}
