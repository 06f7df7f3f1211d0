import type { Rpc } from "../../chain/rpc.js";
import type { Config } from "../../config/config.js";
import type { Db } from "../../db/db.js";
import type { TokenChange } from "../../events/bus.js";
import { startTokenWorkers, type TokenWorkers } from "../../token-workers/workers.js";
import type { Logger } from "../../util/logger.js";

/**
 * Token properties and metadata fetching of the `work` role. It needs the chain's node (RPC_URL) for its
 * eth_calls; without one there is nothing it can fetch, which it says once.
 */
export function startTokenWork(o: {
  config: Config;
  db: Db;
  rpc: Rpc | null;
  logger: Logger;
  onChange?: (change: TokenChange) => void;
}): TokenWorkers {
  const logger = o.logger.child({ part: "tokens" });
  if (!o.rpc) {
    logger.warn("RPC_URL is unset: token properties and metadata are not fetched by this process");
    return { wake() {}, stop: async () => {} };
  }
  return startTokenWorkers({
    db: o.db,
    rpc: o.rpc,
    config: o.config,
    logger,
    ...(o.onChange ? { onChange: o.onChange } : {}),
  });
}
