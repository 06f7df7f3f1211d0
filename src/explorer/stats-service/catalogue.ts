/**
 * The stats service's charts and counters that Lookout keeps (Blockscout's blockscout-rs `stats`, its
 * `blockscout_instance` configuration: ids as its API spells them, titles, descriptions, units and sections in its
 * layout's order). A chart that cannot apply to the indexed chain is left out, as the service leaves it out.
 */

export type Resolution = "DAY" | "WEEK" | "MONTH" | "YEAR";
export const RESOLUTIONS: readonly Resolution[] = ["DAY", "WEEK", "MONTH", "YEAR"];

/** A day's row as the stats stage and the counters stage keep it (numbers as decimal strings). */
export type DayRow = {
  day: string;
  blocks: string;
  transactions: string;
  gas_used: string;
  fees: string;
  successful_transactions: string;
  operational_transactions: string;
  gas_limit: string;
  gas_price_sum: string;
  priced_transactions: string;
  block_size: string;
  sized_blocks: string;
  native_transfers: string;
  contracts: string;
  authorizations: string;
  rewards: string;
  rewarded_blocks: string;
  new_accounts: string;
  active_accounts: string;
  supply_change: string;
  holders_change: string;
  verified_contracts: string;
};
export type DayColumn = Exclude<keyof DayRow, "day">;

/**
 * How a chart's point comes from the day rows of its period: a sum of a column (`sum`), a column summed since the
 * beginning (`growth`: its total at the period's end), or one sum divided by another (`ratio`, scaled by `factor` and shown with `decimals`).
 */
export type ChartValue =
  | { kind: "sum"; column: DayColumn; divisor?: bigint; decimals?: number }
  | { kind: "growth"; column: DayColumn; divisor?: bigint; decimals?: number }
  | {
      kind: "ratio";
      numerator: DayColumn;
      denominator: DayColumn;
      divisor: bigint;
      decimals: number;
      times?: bigint;
    };

export type ChartDef = {
  id: string;
  section: string;
  title: string;
  description: string;
  units?: string;
  value: ChartValue;
  /** Only these resolutions (a period's distinct senders are not the sum of its days'). */
  resolutions?: readonly Resolution[];
  opStack?: boolean;
};

const WEI = 10n ** 18n;
const GWEI = 10n ** 9n;

/** The sections in the service's layout order (user operations and the like are not indexed: no section). */
export const SECTIONS = [
  { id: "accounts", title: "Accounts" },
  { id: "transactions", title: "Transactions" },
  { id: "blocks", title: "Blocks" },
  { id: "tokens", title: "Tokens" },
  { id: "gas", title: "Gas" },
  { id: "contracts", title: "Contracts" },
] as const;

/** Every line chart, in the layout's order within its section; `{{coin}}` is the native coin's symbol. */
export function lineCharts(symbol: string): ChartDef[] {
  const s = symbol;
  return [
    {
      id: "accountsGrowth",
      section: "accounts",
      title: "Number of accounts",
      description: "Cumulative account growth over time",
      value: { kind: "growth", column: "new_accounts" },
    },
    {
      id: "activeAccounts",
      section: "accounts",
      title: "Active accounts",
      description: "Active accounts number per period",
      value: { kind: "sum", column: "active_accounts" },
      resolutions: ["DAY"],
    },
    {
      id: "newAccounts",
      section: "accounts",
      title: "New accounts",
      description: "Number of newly added accounts",
      value: { kind: "sum", column: "new_accounts" },
    },
    {
      id: "averageTxnFee",
      section: "transactions",
      title: "Average transaction fee",
      description: `Average amount of ${s} spent on gas fees per transaction`,
      units: s,
      value: { kind: "ratio", numerator: "fees", denominator: "transactions", divisor: WEI, decimals: 18 },
    },
    {
      id: "newTxns",
      section: "transactions",
      title: "New transactions",
      description: "Number of new transactions",
      value: { kind: "sum", column: "transactions" },
    },
    {
      id: "txnsFee",
      section: "transactions",
      title: "Transaction fees",
      description: `Sum of ${s} spent on gas fees`,
      units: s,
      value: { kind: "sum", column: "fees", divisor: WEI, decimals: 18 },
    },
    {
      id: "txnsGrowth",
      section: "transactions",
      title: "Number of transactions",
      description: "Cumulative transaction growth over time",
      value: { kind: "growth", column: "transactions" },
    },
    {
      id: "opStackNewOperationalTxns",
      section: "transactions",
      title: "New operational transactions",
      description: "Number of new transactions without attributes deposited transactions",
      value: { kind: "sum", column: "operational_transactions" },
      opStack: true,
    },
    {
      id: "opStackOperationalTxnsGrowth",
      section: "transactions",
      title: "Number of operational transactions",
      description: "Cumulative transactions growth without attributes deposited transactions",
      value: { kind: "growth", column: "operational_transactions" },
      opStack: true,
    },
    {
      id: "txnsSuccessRate",
      section: "transactions",
      title: "Transaction success rate",
      description: "Success rate for all included transactions",
      value: {
        kind: "ratio",
        numerator: "successful_transactions",
        denominator: "transactions",
        divisor: 1n,
        decimals: 6,
      },
    },
    {
      id: "newEip7702Auths",
      section: "transactions",
      title: "New EIP-7702 authorizations",
      description: "Number of new EIP-7702 authorizations",
      value: { kind: "sum", column: "authorizations" },
    },
    {
      id: "eip7702AuthsGrowth",
      section: "transactions",
      title: "Number of EIP-7702 authorizations",
      description: "Cumulative EIP-7702 authorization growth over time",
      value: { kind: "growth", column: "authorizations" },
    },
    {
      id: "averageBlockRewards",
      section: "blocks",
      title: "Average block rewards",
      description: "Average amount of reward",
      units: s,
      value: {
        kind: "ratio",
        numerator: "rewards",
        denominator: "rewarded_blocks",
        divisor: WEI,
        decimals: 18,
      },
    },
    {
      id: "averageBlockSize",
      section: "blocks",
      title: "Average block size",
      description: "Space (in bytes) taken up by all block fields",
      units: "Bytes",
      value: {
        kind: "ratio",
        numerator: "block_size",
        denominator: "sized_blocks",
        divisor: 1n,
        decimals: 2,
      },
    },
    {
      id: "newBlocks",
      section: "blocks",
      title: "New blocks",
      description: "Number of new blocks added to the chain",
      value: { kind: "sum", column: "blocks" },
    },
    {
      id: "nativeCoinHoldersGrowth",
      section: "tokens",
      title: `${s} holders`,
      description: `Number of accounts holding ${s}`,
      value: { kind: "growth", column: "holders_change" },
    },
    {
      id: "nativeCoinSupply",
      section: "tokens",
      title: `${s} circulating supply`,
      description: `Amount of publicly available ${s}`,
      units: s,
      value: { kind: "growth", column: "supply_change", divisor: WEI, decimals: 18 },
    },
    {
      id: "newNativeCoinHolders",
      section: "tokens",
      title: `New ${s} holders`,
      description: `Number of new accounts holding ${s}`,
      value: { kind: "sum", column: "holders_change" },
    },
    {
      id: "newNativeCoinTransfers",
      section: "tokens",
      title: `Number of ${s} transfers`,
      description: "Completed token transfers",
      value: { kind: "sum", column: "native_transfers" },
    },
    {
      id: "averageGasLimit",
      section: "gas",
      title: "Average gas limit",
      description: "Average block gas limit",
      value: { kind: "ratio", numerator: "gas_limit", denominator: "blocks", divisor: 1n, decimals: 0 },
    },
    {
      id: "averageGasPrice",
      section: "gas",
      title: "Average gas price",
      description: "Average price (Gwei) per unit of gas",
      units: "Gwei",
      value: {
        kind: "ratio",
        numerator: "gas_price_sum",
        denominator: "priced_transactions",
        divisor: GWEI,
        decimals: 9,
      },
    },
    {
      id: "gasUsedGrowth",
      section: "gas",
      title: "Total gas usage",
      description: "Cumulative gas used over time",
      value: { kind: "growth", column: "gas_used" },
    },
    {
      id: "networkUtilization",
      section: "gas",
      title: "Network utilization",
      description: "Percentage of gas used compared to the gas limit",
      value: {
        kind: "ratio",
        numerator: "gas_used",
        denominator: "gas_limit",
        divisor: 1n,
        decimals: 4,
        times: 100n,
      },
    },
    {
      id: "averageGasUsed",
      section: "gas",
      title: "Average gas used",
      description: "Average amount of gas used per block",
      value: { kind: "ratio", numerator: "gas_used", denominator: "blocks", divisor: 1n, decimals: 0 },
    },
    {
      id: "contractsGrowth",
      section: "contracts",
      title: "Number of contracts",
      description: "Cumulative contract growth over time",
      value: { kind: "growth", column: "contracts" },
    },
    {
      id: "newContracts",
      section: "contracts",
      title: "New contracts",
      description: "Number of new contracts in the network",
      value: { kind: "sum", column: "contracts" },
    },
    {
      id: "newVerifiedContracts",
      section: "contracts",
      title: "New verified contracts",
      description: "Number of newly verified contracts",
      value: { kind: "sum", column: "verified_contracts" },
    },
    {
      id: "verifiedContractsGrowth",
      section: "contracts",
      title: "Number of verified contracts",
      description: "Cumulative verified contract growth over time",
      value: { kind: "growth", column: "verified_contracts" },
    },
  ];
}

/** The home page's 30-day transactions chart (the service's new_txns_window). */
export const NEW_TXNS_WINDOW = {
  id: "newTxnsWindow",
  title: "Daily transactions",
  description: "The chart displays daily transactions for the past 30 days",
};
export const OP_NEW_TXNS_WINDOW = {
  id: "opStackNewOperationalTxnsWindow",
  title: "Daily operational transactions",
  description:
    "The chart displays daily transactions for the past 30 days (without attributes deposited transactions)",
};

/** The counters' texts (`/api/v1/counters` and the pages), by the service's id. */
export function counterTexts(
  symbol: string,
): Record<string, { title: string; description: string; units?: string }> {
  return {
    averageBlockTime: {
      title: "Average block time",
      description: "Average time taken in seconds for a block to be included in the blockchain",
      units: "s",
    },
    completedTxns: { title: "Completed txns", description: "Number of transactions with success status" },
    lastNewContracts: {
      title: "Number of contracts today",
      description: "Number of deployed contracts today (UTC)",
    },
    lastNewVerifiedContracts: {
      title: "Number of verified contracts today",
      description: "Number of contracts verified today (UTC)",
    },
    totalAccounts: {
      title: "Total accounts",
      description: "Number of EOAs that sent at least 1 transaction",
    },
    totalAddresses: {
      title: "Total addresses",
      description: "Number of addresses that participated in the blockchain",
    },
    totalBlocks: { title: "Total blocks", description: "Number of blocks over all time" },
    totalContracts: { title: "Total contracts", description: "Number of contracts" },
    totalNativeCoinHolders: {
      title: `Total ${symbol} holders`,
      description: `Number of accounts with ${symbol}`,
    },
    totalNativeCoinTransfers: {
      title: `Total ${symbol} transfers`,
      description: `Number of transactions with the transfer of the ${symbol}`,
    },
    totalTxns: {
      title: "Total txns",
      description: "All transactions including pending, dropped, replaced, failed transactions",
    },
    opStackTotalOperationalTxns: {
      title: "Total operational txns",
      description: "'Total txns' without attributes deposited transactions",
    },
    totalVerifiedContracts: {
      title: "Total verified contracts",
      description: "Number of verified contracts",
    },
    newTxns24h: {
      title: "Transactions (24h)",
      description: "Number of new transactions within the last 24 hours",
    },
    pendingTxns30m: {
      title: "Pending transactions (30m)",
      description: "Transactions in the past 30 minutes waiting to be processed by the network",
    },
    txnsFee24h: {
      title: "Transactions fees (24h)",
      description: `Sum of ${symbol} spent on gas fees within the last 24 hours`,
      units: symbol,
    },
    averageTxnFee24h: {
      title: "Avg. transaction fee (24h)",
      description: `Average amount of ${symbol} spent on gas fees per transaction within the last 24 hours`,
      units: symbol,
    },
    yesterdayTxns: {
      title: "Yesterday txns",
      description: "Number of transactions yesterday (0:00 - 23:59 UTC)",
    },
    opStackYesterdayOperationalTxns: {
      title: "Yesterday operational txns",
      description:
        "Number of transactions yesterday (0:00 - 23:59 UTC) without attributes deposited transactions",
    },
    newContracts24h: {
      title: "Number of contracts (24h)",
      description: "Number of deployed contracts within the last 24 hours",
    },
    newVerifiedContracts24h: {
      title: "Number of verified contracts (24h)",
      description: "Number of contracts verified within the last 24 hours",
    },
  };
}

/** `/api/v1/counters`' ids in the layout's order (OP ones only on an OP chain). */
export const COUNTERS_ORDER = [
  "averageBlockTime",
  "completedTxns",
  "lastNewContracts",
  "lastNewVerifiedContracts",
  "totalAccounts",
  "totalAddresses",
  "totalBlocks",
  "totalContracts",
  "totalNativeCoinHolders",
  "totalNativeCoinTransfers",
  "totalTxns",
  "opStackTotalOperationalTxns",
  "totalVerifiedContracts",
  "newTxns24h",
  "pendingTxns30m",
  "txnsFee24h",
  "averageTxnFee24h",
] as const;
export const OP_COUNTERS = new Set(["opStackTotalOperationalTxns", "opStackYesterdayOperationalTxns"]);
