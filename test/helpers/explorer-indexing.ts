import { blockRewardsExtension } from "../../src/indexer/block-rewards/extension.js";
import { countersExtension } from "../../src/indexer/counters/extension.js";
import type { IndexerExtension } from "../../src/indexer/extension.js";
import { internalTransactionsExtension } from "../../src/indexer/internal-transactions/extension.js";
import { withdrawalsExtension } from "../../src/indexer/withdrawals/extension.js";

/** The explorer's indexing parts (i15 schema), counters last: it reads the rows of the others. */
export function INDEX_EXTENSIONS(): IndexerExtension[] {
  return [
    internalTransactionsExtension(),
    withdrawalsExtension(),
    blockRewardsExtension(),
    countersExtension(),
  ];
}
