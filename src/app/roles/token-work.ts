import type { Rpc } from "../../chain/rpc.js";
import type { Config } from "../../config/config.js";
import type { Db } from "../../db/db.js";
import type { EventBus } from "../../events/bus.js";
import type { TokenChange } from "../../events/facts.js";
import { createTokenCallsRpc } from "../../token-workers/rpc.js";
import { startTokenWorkers, type TokenWorkers } from "../../token-workers/workers.js";
import type { Logger } from "../../util/logger.js";

type TokenWorkDeps = {
  config: Config;
  db: Db;
  logger: Logger;
  /** Committed batches (`blocks`) wake the workers early. */
  bus: EventBus;
  /** Told what the workers store that the socket reports. */
  onChange?: (change: TokenChange) => void;
};

const workersOn = (o: TokenWorkDeps, rpc: Rpc, logger: Logger) =>
  startTokenWorkers({
    db: o.db,
    rpc,
    config: o.config,
    logger,
    wakeOn: o.bus,
    ...(o.onChange ? { onChange: o.onChange } : {}),
  });

/**
 * Token properties and metadata fetching of the `work` role. It needs the chain's node (RPC_URL) for its
 * eth_calls; without one there is nothing it can fetch, which it says once.
 */
export function startTokenWork(o: TokenWorkDeps & { rpc: Rpc | null }): TokenWorkers {
  const logger = o.logger.child({ part: "tokens" });
  if (!o.rpc) {
    logger.warn("RPC_URL is unset: token properties and metadata are not fetched by this process");
    return { wake() {}, stop: async () => {} };
  }
  return workersOn(o, o.rpc, logger);
}

/**
 * Token properties and metadata fetching beside the indexer (`start`, `index`): started by the first batch this
 * process commits (a standby indexer, `indexing()` false, fetches nothing), on a client of its own to the same
 * node, so metadata calls never share a batch with an indexing step.
 */
export function startTokenWorkBesideIndexer(
  o: TokenWorkDeps & { rpc: Rpc; indexing: () => boolean },
): TokenWorkers {
  const logger = o.logger.child({ part: "tokens" });
  let workers: TokenWorkers | undefined;
  const off = o.bus.on((event) => {
    if (event.kind !== "blocks" || workers || !o.indexing()) return;
    workers = workersOn(o, createTokenCallsRpc(o.rpc.url, { timeoutMs: o.config.rpcTimeoutMs }), logger);
  });
  return {
    wake: () => workers?.wake(),
    async stop() {
      off();
      await workers?.stop();
    },
  };
}
