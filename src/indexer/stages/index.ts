import type { Config } from "../../config/config.js";
import type { Db } from "../../db/db.js";
import type { TokenChange } from "../../events/bus.js";
import type { Logger } from "../../util/logger.js";
import type { IndexerExtension } from "../pipeline/extension.js";
import { automaticVerificationExtension } from "./auto-verify/extension.js";
import { coinBalanceExtension } from "./balances/extension.js";
import { blockRewardsExtension } from "./block-rewards/extension.js";
import { countersExtension } from "./counters/extension.js";
import { internalTransactionsExtension } from "./internal-transactions/extension.js";
import { tokenIndexerExtensions } from "./tokens/index.js";
import { withdrawalsExtension } from "./withdrawals/extension.js";

/** The indexer parts beyond the core tables, in the order they write. */
export function defaultExtensions(_deps: {
  config: Config;
  db: Db;
  logger: Logger;
  /** Told what the token workers store that the socket reports. */
  onTokenChange?: (change: TokenChange) => void;
}): IndexerExtension[] {
  return [
    coinBalanceExtension(),
    ...tokenIndexerExtensions(_deps),
    automaticVerificationExtension(),
    internalTransactionsExtension(),
    withdrawalsExtension(),
    blockRewardsExtension(),
    // Reads the rows of every part above: keep it last.
    countersExtension(),
  ];
}
