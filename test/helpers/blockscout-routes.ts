/**
 * Blockscout's public API for a plain EVM chain (default configuration), read from its routers
 * (apps/block_scout_web/lib/block_scout_web/routers/api_router.ex and the v2 routers it forwards to, the RPC
 * controllers and Explorer.EthRPC), with the reason for each one Lookout leaves out. `npm run docs:routes` checks
 * every entry against the routes the app registers (and the RPC tables), so "served" always means registered.
 */

export type Reason =
  | "chain-specific"
  | "user accounts"
  | "third-party proxy"
  | "operator key"
  | "optional feature"
  | "no price source"
  | "not served yet";

export type UpstreamRoute = {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  /** Why Lookout does not serve it (checked: an entry with a reason that is served anyway shows as served). */
  reason?: Reason;
  note?: string;
  /** The Lookout route that serves it when the path differs (a parameter where Blockscout has names). */
  as?: string;
};

const V2 = "/api/v2";
const get = (path: string, o: Omit<UpstreamRoute, "method" | "path"> = {}): UpstreamRoute => ({
  method: "GET",
  path,
  ...o,
});
const post = (path: string, o: Omit<UpstreamRoute, "method" | "path"> = {}): UpstreamRoute => ({
  method: "POST",
  path,
  ...o,
});

const VERIFY_VIA = `${V2}/smart-contracts/:address_hash_param/verification/via/:method`;
const verifyVia = (m: string) =>
  post(`${V2}/smart-contracts/:address_hash/verification/via/${m}`, { as: VERIFY_VIA });

export const UPSTREAM_ROUTES: readonly UpstreamRoute[] = [
  get(`${V2}/openapi`, {
    note: "Lookout's whole OpenAPI document (also at /api/docs/openapi.json); Blockscout's documents /api/v2",
  }),
  get(`${V2}/search`),
  get(`${V2}/search/check-redirect`),
  get(`${V2}/search/quick`),
  get(`${V2}/config/backend`),
  get(`${V2}/config/backend-version`),
  get(`${V2}/config/csv-export`),
  get(`${V2}/config/indexer`),
  get(`${V2}/config/public-metrics`),
  get(`${V2}/config/smart-contracts/languages`),
  get(`${V2}/config/db-background-migrations`, {
    note: "none running: Lookout applies every migration before it serves (an empty list, Blockscout's 'all done')",
  }),
  get(`${V2}/csv-exports/:uuid_param`, {
    reason: "optional feature",
    note: "asynchronous CSV exports (off by default in Blockscout); Lookout answers every export at once",
  }),
  get(`${V2}/transactions`),
  get(`${V2}/transactions/watchlist`, {
    note: "401 Unauthorized, as Blockscout without a signed-in account",
  }),
  get(`${V2}/transactions/stats`),
  get(`${V2}/transactions/:transaction_hash_param`),
  get(`${V2}/transactions/:transaction_hash_param/token-transfers`),
  get(`${V2}/transactions/:transaction_hash_param/internal-transactions`),
  get(`${V2}/transactions/:transaction_hash_param/logs`),
  get(`${V2}/transactions/:transaction_hash_param/fhe-operations`, {
    note: "an empty list: no fhEVM operations are indexed (Blockscout's answer on a chain without them)",
  }),
  get(`${V2}/transactions/:transaction_hash_param/raw-trace`),
  get(`${V2}/transactions/:transaction_hash_param/state-changes`),
  get(`${V2}/transactions/:transaction_hash_param/summary`, {
    note: "always 403: no transaction interpretation service",
  }),
  get(`${V2}/transactions/:transaction_hash_param/preview`),
  get(`${V2}/token-transfers`),
  get(`${V2}/internal-transactions`),
  get(`${V2}/blocks`),
  get(`${V2}/blocks/:block_hash_or_number_param`),
  get(`${V2}/blocks/:block_hash_or_number_param/transactions`),
  get(`${V2}/blocks/:block_hash_or_number_param/internal-transactions`),
  get(`${V2}/blocks/:block_hash_or_number_param/withdrawals`),
  get(`${V2}/blocks/:block_number_param/countdown`, {
    reason: "not served yet",
    note: "the same figures as /api?module=block&action=getblockcountdown",
  }),
  get(`${V2}/addresses`),
  get(`${V2}/addresses/:address_hash_param`),
  get(`${V2}/addresses/:address_hash_param/tabs-counters`),
  get(`${V2}/addresses/:address_hash_param/counters`),
  get(`${V2}/addresses/:address_hash_param/token-balances`),
  get(`${V2}/addresses/:address_hash_param/tokens`),
  get(`${V2}/addresses/:address_hash_param/transactions`),
  get(`${V2}/addresses/:address_hash_param/transactions/csv`),
  get(`${V2}/addresses/:address_hash_param/token-transfers`),
  get(`${V2}/addresses/:address_hash_param/token-transfers/csv`),
  get(`${V2}/addresses/:address_hash_param/internal-transactions`),
  get(`${V2}/addresses/:address_hash_param/internal-transactions/csv`),
  get(`${V2}/addresses/:address_hash_param/logs`),
  get(`${V2}/addresses/:address_hash_param/logs/csv`),
  get(`${V2}/addresses/:address_hash_param/blocks-validated`),
  get(`${V2}/addresses/:address_hash_param/coin-balance-history`),
  get(`${V2}/addresses/:address_hash_param/coin-balance-history-by-day`),
  get(`${V2}/addresses/:address_hash_param/withdrawals`),
  get(`${V2}/addresses/:address_hash_param/nft`),
  get(`${V2}/addresses/:address_hash_param/nft/collections`),
  get(`${V2}/main-page/blocks`),
  get(`${V2}/main-page/transactions`),
  get(`${V2}/main-page/transactions/watchlist`, { note: "401 Unauthorized, as above" }),
  get(`${V2}/main-page/indexing-status`),
  get(`${V2}/stats`),
  get(`${V2}/stats/hot-smart-contracts`, {
    note: "from `hot_contracts` (per minute and UTC day, kept by the hot-contracts stage); Blockscout's scales, sorts and cursor",
  }),
  get(`${V2}/stats/charts/transactions`),
  get(`${V2}/stats/charts/market`),
  get(`${V2}/stats/charts/secondary-coin-market`, { reason: "no price source" }),
  get(`${V2}/withdrawals`),
  get(`${V2}/withdrawals/counters`),
  get(`${V2}/proxy/3rdparty/:platform_id`, { reason: "third-party proxy" }),
  get(`${V2}/proxy/3rdparty/noves-fi/*`, { reason: "third-party proxy", note: "3 routes (Noves)" }),
  get(`${V2}/proxy/3rdparty/xname/addresses/:address_hash_param`, { reason: "third-party proxy" }),
  get(`${V2}/proxy/3rdparty/solidityscan/smart-contracts/:address_hash/report`, {
    reason: "third-party proxy",
  }),
  get(`${V2}/proxy/account-abstraction/*`, {
    reason: "third-party proxy",
    note: "13 routes (the user-operations indexer)",
  }),
  get(`${V2}/proxy/metadata/addresses`, { reason: "third-party proxy" }),
  get(`${V2}/mud/*`, { reason: "optional feature", note: "9 routes; MUD indexing is off by default" }),
  get(`${V2}/advanced-filters`),
  get(`${V2}/advanced-filters/csv`),
  get(`${V2}/advanced-filters/methods`),
  get(`${V2}/smart-contracts`),
  get(`${V2}/smart-contracts/counters`),
  get(`${V2}/smart-contracts/:address_hash_param`),
  get(`${V2}/smart-contracts/:address_hash_param/audit-reports`, {
    reason: "not served yet",
    note: "audit reports that users submit",
  }),
  post(`${V2}/smart-contracts/:address_hash_param/audit-reports`, {
    reason: "not served yet",
    note: "behind reCAPTCHA in Blockscout",
  }),
  get(`${V2}/smart-contracts/verification/config`),
  verifyVia("standard-input"),
  verifyVia("flattened-code"),
  verifyVia("sourcify"),
  verifyVia("multi-part"),
  verifyVia("vyper-code"),
  verifyVia("vyper-multi-part"),
  verifyVia("vyper-standard-input"),
  get(`${V2}/tokens`),
  get(`${V2}/tokens/bridged`, {
    reason: "optional feature",
    note: "bridged tokens (an OmniBridge-style config)",
  }),
  get(`${V2}/tokens/:address_hash_param`),
  get(`${V2}/tokens/:address_hash_param/counters`),
  get(`${V2}/tokens/:address_hash_param/transfers`),
  get(`${V2}/tokens/:address_hash_param/holders`),
  get(`${V2}/tokens/:address_hash_param/holders/csv`),
  get(`${V2}/tokens/:address_hash_param/instances`),
  get(`${V2}/tokens/:address_hash_param/instances/:token_id_param`),
  get(`${V2}/tokens/:address_hash_param/instances/:token_id_param/transfers`),
  get(`${V2}/tokens/:address_hash_param/instances/:token_id_param/holders`),
  get(`${V2}/tokens/:address_hash_param/instances/:token_id_param/transfers-count`),
  { method: "PATCH", path: `${V2}/tokens/:address_hash_param/instances/:token_id_param/refetch-metadata` },
  {
    method: "PATCH",
    path: `${V2}/tokens/:address_hash_param/instances/refetch-metadata`,
    reason: "operator key",
    note: "Blockscout's sensitive-endpoints API key",
  },
  get(`${V2}/utils/decode-calldata`),
  post(`${V2}/utils/decode-calldata`),
  get(`${V2}/scam-badge-addresses`, { reason: "operator key", note: "scam badges an operator assigns" }),
  post(`${V2}/scam-badge-addresses`, { reason: "operator key" }),
  { method: "DELETE", path: `${V2}/scam-badge-addresses`, reason: "operator key" },
  post(`${V2}/key`, { reason: "user accounts", note: "API keys behind reCAPTCHA" }),
  post(`${V2}/import/token-info`, { reason: "operator key" }),
  { method: "DELETE", path: `${V2}/import/token-info`, reason: "operator key" },
  get(`${V2}/import/smart-contracts/:address_hash_param`, { reason: "operator key" }),
  post(`${V2}/import/smart-contracts/:address_hash_param/audit-reports`, { reason: "operator key" }),
  get("/api/account/*", { reason: "user accounts", note: "the account router (watchlists, tags, API keys)" }),
  // Beacon deposits (/beacon/deposits, /beacon/deposits/count, /blocks/{b}/, /addresses/{h}/ and
  // /transactions/{h}/beacon/deposits) are compiled in only for CHAIN_TYPE=ethereum; elsewhere Blockscout's /api/v2
  // catch-all answers 400 "Unknown API v2 action", and so does Lookout, which does not index deposits: an empty list
  // would tell an Ethereum-like chain's visitors there were none. The frontend (v2.6.0+) asks for them only with
  // NEXT_PUBLIC_HAS_BEACON_CHAIN=true and NEXT_PUBLIC_BEACON_CHAIN_WITHDRAWALS_ONLY unset.
  get(`${V2}/optimism|arbitrum|zksync|scroll|shibarium|celo|beacon|blobs|validators/*`, {
    reason: "chain-specific",
    note:
      "compiled in only for those chain types; elsewhere 400 Unknown API v2 action, as here for /beacon/deposits* " +
      "(deposits not indexed; frontend: NEXT_PUBLIC_BEACON_CHAIN_WITHDRAWALS_ONLY=true)",
  }),
  get("/api/legacy/logs/get-logs"),
  get("/api/legacy/block/get-block-number-by-time"),
  get("/api/legacy/block/eth-block-number"),
  get("/api/v1/graphql", { note: "Blockscout's GraphQL API (docs/graphql.md)" }),
  post("/api/v1/graphql"),
  get("/graphiql", { note: "GraphiQL (router.ex), on by default" }),
  get("/schema.graphql", { note: "the GraphQL schema in SDL, as text (router.ex, SchemaController)" }),
  get("/api/v1/search", { note: "the same answer as /api/v2/search" }),
  get("/api/v1/gas-price-oracle"),
  get("/api/v1/supply", { note: "0 and null: no market source (Blockscout's answer without one)" }),
  post("/api/v1/eth-rpc", { note: "the same as /api/eth-rpc" }),
  post("/api/v1/verified_smart_contracts", {
    note: "one flattened Solidity file through the verification job queue; the answer waits for the job",
  }),
  get("/api/v1", { note: "`?module=…&action=…`: the /api modules and actions at /api/v1 too" }),
  post("/api/v1", { note: "as above" }),
  post("/verify_smart_contract/contract_verifications", {
    reason: "not served yet",
    note:
      "the older verification form (router.ex): answers 204 at once and pushes the outcome as rendered HTML on the " +
      "old web UI's channel; the verification APIs serve its cases",
  }),
  get("/api/health"),
  get("/api/health/liveness"),
  get("/api/health/readiness"),
  get("/api/health/multichain-search-export", {
    reason: "optional feature",
    note: "multichain search export",
  }),
  post("/api/eth-rpc"),
  get("/api"),
  post("/api"),
];

/**
 * The actions of Blockscout's RPC modules (`/api?module=…&action=…`), by module: the action and a note (what
 * Lookout does differently when served, why not when not).
 */
export const UPSTREAM_ACTIONS: Readonly<Record<string, ReadonlyArray<[action: string, note?: string]>>> = {
  account: [
    ["balance", 'index balance; an address never seen is "0"'],
    ["balancemulti", "up to 20 addresses; `stale` always false (the index is current)"],
    ["eth_get_balance", "JSON-RPC shaped, from the balance history"],
    ["getminedblocks"],
    ["listaccounts", "in the order the index first saw the addresses"],
    ["pendingtxlist", 'always "No transactions found": no mempool is indexed'],
    ["token1155tx", "batches flattened (`tokenID`, `tokenValue`)"],
    ["token404tx", 'the fungible side carries `value`, the NFT side `tokenID` (the other "")'],
    ["token7984tx", 'ERC-7984 (confidential tokens) is not indexed: always "No token transfers found"'],
    ["tokenbalance"],
    ["tokenlist", "ERC-20/404 and ERC-721 per token, ERC-1155 per id (`id`)"],
    ["tokennfttx"],
    ["tokentx", "ERC-20; `address` and/or `contractaddress`"],
    ["txlist", "sender, recipient and creator; bounded `page`/`offset` (see Paging)"],
    [
      "txlistinternal",
      'by `address`, `txhash` or chain-wide; zero-value calls only with `include_zero_value=true`; status "2" for a transaction whose block is not traced yet',
    ],
  ],
  block: [
    ["eth_block_number"],
    ["getblockcountdown", "average over the last 100 indexed blocks"],
    ["getblocknobytime"],
    ["getblockreward", 'from `block_rewards` (trace_block); "0" where the node reports none'],
  ],
  logs: [["getlogs", "`topicX_Y_opr` and/or as Blockscout; at most 1000 logs"]],
  token: [
    ["gettoken"],
    ["gettokenholders", "`page` x `offset` bounded by 10,000 (Blockscout leaves it unbounded)"],
    ["bridgedtokenlist", "chain-specific: bridged tokens"],
  ],
  stats: [
    ["coinprice", "nulls: no price source"],
    ["coinsupply", "the same minus the zero address, in ether"],
    ["ethprice", "nulls: no price source"],
    ["ethsupply", "sum of indexed balances (a counter the balances stage keeps)"],
    ["ethsupplyexchange", '"0": no market source (Blockscout\'s answer without one)'],
    ["tokensupply", "`cmc=true`: plain text"],
    ["totalfees", "the day's block fees (`daily_counters`)"],
  ],
  contract: [
    [
      "checkproxyverification",
      '`src/verifier-apis/etherscan/`: "Pending in queue" (status "0", as Etherscan; Blockscout answers status "1") until the indexer has read the proxy',
    ],
    ["checkverifystatus", "`src/verifier-apis/etherscan/`"],
    ["getabi", "`src/verifier-apis/etherscan/`; unverified: Blockscout's message with result null"],
    [
      "getcontractcreation",
      "`src/verifier-apis/etherscan/`: the first 10 addresses, Blockscout's members (`timestamp`, `contractFactory`, `creationBytecode` beside Etherscan's four); a malformed address is a status \"0\" error where Blockscout skips it",
    ],
    [
      "getsourcecode",
      "`src/verifier-apis/etherscan/`, Blockscout's item (`Address`, `FileName`, `AdditionalSources`, `IsProxy`, `ImplementationAddress(es)`, `CompilerSettings`; `[{Address}]` when unverified); Vyper versions as `vyper:x.y.z` for foundry",
    ],
    ["listcontracts", "`page` x `offset` bounded by 10,000 (Blockscout's offset is unbounded)"],
    [
      "verify",
      "`src/verifier-apis/etherscan/publish-actions.ts`: one flattened file (`{name}.sol`) through the job queue; the answer waits for the job (120 s, then its GUID) and is the contract's getsourcecode item",
    ],
    [
      "verify_via_sourcify",
      "as `verify`, from multipart `files[i]` (metadata and sources); Lookout is its own Sourcify, so files are required where Blockscout would first import from sourcify.dev",
    ],
    [
      "verify_vyper_contract",
      "as `verify`, one Vyper file (`{name}.vy`), the compiler's default EVM version",
    ],
    [
      "verifyproxycontract",
      "`src/verifier-apis/etherscan/`: the indexer reads the proxy again at its next block (EIP-1967, EIP-1822, EIP-897)",
    ],
    ["verifysourcecode", "`src/verifier-apis/etherscan/`"],
  ],
  transaction: [
    [
      "getstatus",
      '`errDescription` is the top call frame\'s error as the node traced it (e.g. "execution reverted", "out of gas"); "awaiting internal transactions" until the block is traced, as Blockscout',
    ],
    ["gettxinfo", "logs 50 a page, `next_page_params`"],
    ["gettxreceiptstatus"],
  ],
  epoch: [["*", "chain-specific: Celo only"]],
};

/** Explorer.EthRPC's methods (`POST /api/eth-rpc`). */
export const UPSTREAM_ETH_RPC = [
  "eth_blockNumber",
  "eth_getBalance",
  "eth_getLogs",
  "eth_gasPrice",
  "eth_getTransactionByHash",
  "eth_getTransactionReceipt",
  "eth_chainId",
  "eth_maxPriorityFeePerGas",
  "eth_getTransactionCount",
  "eth_getCode",
  "eth_getStorageAt",
  "eth_estimateGas",
  "eth_getBlockByNumber",
  "eth_getBlockByHash",
  "eth_sendRawTransaction",
  "eth_call",
] as const;
