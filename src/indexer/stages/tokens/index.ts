import type { Rpc } from "../../../chain/rpc.js";
import type { Config } from "../../../config/config.js";
import type { Db } from "../../../db/db.js";
import type { TokenChange } from "../../../events/bus.js";
import { createTokenCallsRpc } from "../../../token-workers/rpc.js";
import { startTokenWorkers } from "../../../token-workers/workers.js";
import type { Logger } from "../../../util/logger.js";
import type { IndexerExtension } from "../../pipeline/extension.js";
import { createProxiesExtension } from "../proxies/extension.js";
import { createTokensExtension } from "./extension.js";

/**
 * The token parts of the indexer (transfers and holdings, proxy implementations) and, once the indexer hands over
 * its node, the background fetchers of token properties and metadata, woken after every commit.
 */
export function tokenIndexerExtensions(deps: {
  config: Config;
  db: Db;
  logger: Logger;
  onTokenChange?: (change: TokenChange) => void;
}): IndexerExtension[] {
  let workers: ReturnType<typeof startTokenWorkers> | undefined;
  const logger = deps.logger.child({ part: "tokens" });
  const tokens = createTokensExtension({
    logger,
    onRpc: (rpc: Rpc) => {
      // Same node, its own client: metadata calls never share a batch with an indexing step.
      workers ??= startTokenWorkers({
        db: deps.db,
        rpc: createTokenCallsRpc(rpc.url, { timeoutMs: deps.config.rpcTimeoutMs }),
        config: deps.config,
        logger,
        ...(deps.onTokenChange ? { onChange: deps.onTokenChange } : {}),
      });
    },
    onCommit: () => workers?.wake(),
  });
  return [{ ...tokens, stop: async () => workers?.stop() }, createProxiesExtension()];
}
