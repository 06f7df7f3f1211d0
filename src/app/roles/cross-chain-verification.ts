import { sleep } from "../../chain/rpc.js";
import type { Db } from "../../db/db.js";
import type { Logger } from "../../util/logger.js";
import {
  copyVerificationsToEarlierDeployments,
  hasNewVerifications,
} from "../../verifier/store/cross-chain.js";

/** How often a chain looks for new verifications (one index lookup when there are none). */
const POLL_MS = 2_000;

/**
 * Beside a chain's indexer: copies the verifications users make (on any chain of the deployment) to this chain's
 * earlier deployments of the same code (verifier/store/cross-chain.ts), pass after pass until nothing is new.
 */
export function startCrossChainVerification(o: { db: Db; chainId: string; logger: Logger }): {
  stop(): Promise<void>;
} {
  const controller = new AbortController();
  const log = o.logger.child({ part: "cross-chain-verification" });
  const running = (async () => {
    while (!controller.signal.aborted) {
      try {
        const copied = (await hasNewVerifications(o.db))
          ? await o.db.transaction((tx) => copyVerificationsToEarlierDeployments(tx, o.chainId))
          : null;
        if (copied) log.info({ copied }, "Verified earlier deployments of newly verified code");
        if (copied !== null) continue;
      } catch (err) {
        log.warn({ err }, "Could not copy verifications to this chain");
      }
      await sleep(POLL_MS, controller.signal);
    }
  })();
  return {
    async stop() {
      controller.abort();
      await running;
    },
  };
}
