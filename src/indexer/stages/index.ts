import type { EventBus } from "../../events/bus.js";
import type { Logger } from "../../util/logger.js";
import type { IndexerExtension } from "../pipeline/extension.js";
import { authorizationsExtension } from "./authorizations/extension.js";
import { automaticVerificationExtension } from "./auto-verify/extension.js";
import { currentBalancesExtension } from "./balances/current-balances.js";
import { coinBalanceExtension } from "./balances/extension.js";
import { blobsExtension } from "./blobs/extension.js";
import { blockRewardsExtension } from "./block-rewards/extension.js";
import { coreRowsExtension } from "./core/extension.js";
import { countersExtension } from "./counters/extension.js";
import { hotContractsExtension } from "./hot-contracts/extension.js";
import { internalTransactionsExtension } from "./internal-transactions/extension.js";
import { liveNotifyExtension } from "./live-notify.js";
import { opStackExtension } from "./op-stack/extension.js";
import { createProxiesExtension } from "./proxies/extension.js";
import { statsExtension } from "./stats/extension.js";
import { createTokensExtension } from "./tokens/extension.js";
import { withdrawalsExtension } from "./withdrawals/extension.js";

export type StageDeps = {
  logger: Logger;
  /** Where committed batches are told (`blocks` events): the sockets and the token workers listen. */
  bus: EventBus;
  /** Also tell other processes by PostgreSQL NOTIFY, inside the batch transaction. */
  notify: boolean;
  /** The chain head the indexer last saw (the socket's indexing status). */
  head?: () => number | null;
};

/**
 * Every stage of the indexer, in the order they write in each batch transaction (and are undone in reverse on a
 * reorganisation). A new indexed table is one folder here and one line in this list.
 */
export function indexerStages(deps: StageDeps): IndexerExtension[] {
  return [
    coreRowsExtension(),
    // OP-stack members beside the transactions (none on other chains).
    opStackExtension(),
    coinBalanceExtension(),
    // Each address's latest balance change; trails during catch-up.
    currentBalancesExtension(),
    createTokensExtension({ logger: deps.logger.child({ part: "tokens" }) }),
    createProxiesExtension(),
    // After the proxies: a delegation is written over a proxy row of the same address and block.
    authorizationsExtension(),
    blobsExtension(),
    automaticVerificationExtension(),
    internalTransactionsExtension(),
    withdrawalsExtension(),
    blockRewardsExtension(),
    // Reads the rows of every stage above.
    countersExtension(),
    // The stats service's charts per day; reads the rows of every stage above.
    statsExtension(),
    // /api/v2/stats/hot-smart-contracts per minute and day; reads the batch's transactions.
    hotContractsExtension(),
    // Tells of the batch once it is written; its NOTIFY is the transaction's last statement before the checkpoint.
    liveNotifyExtension(deps.bus, { notify: deps.notify, ...(deps.head ? { head: deps.head } : {}) }),
  ];
}
