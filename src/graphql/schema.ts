/**
 * Blockscout's GraphQL schema (its Absinthe schema, `BlockScoutWeb.GraphQL.Schema` with `Schema.Types` and
 * `Schema.Scalars`, as Absinthe publishes it: camelCase names, Relay "modern" connections and the Node interface),
 * for a plain EVM chain. Absinthe also accepts the snake_case spelling of every field and argument (`names.ts`).
 * Not served: the `tokenTransfers` subscription (Blockscout's runs over its Phoenix socket).
 */
export const TYPE_DEFS = `
"The address (40 hex characters / 20 bytes), lower-case, 0x-prefixed."
scalar AddressHash
"An unpadded hexadecimal number with 0 or more digits, 0x-prefixed."
scalar Data
"A 32-byte KECCAK-256 hash, 0x-prefixed."
scalar FullHash
"A block's 8-byte nonce (hex); a transaction's nonce (decimal)."
scalar NonceHash
"An amount of wei, as a decimal string."
scalar Wei
"An arbitrary-precision number, as a decimal string."
scalar Decimal
"An ISO 8601 UTC timestamp with microseconds."
scalar DateTime
"Arbitrary JSON, serialized as a JSON string."
scalar Json

enum Status { OK ERROR }
enum CallType { CALL CALLCODE DELEGATECALL STATICCALL }
enum Type { CALL CREATE REWARD SELFDESTRUCT }
enum SortOrder { ASC DESC }
enum Language { SOLIDITY VYPER YUL GEAS }

interface Node { "The ID of the object." id: ID! }

type PageInfo {
  hasPreviousPage: Boolean!
  hasNextPage: Boolean!
  startCursor: String
  endCursor: String
}

"A stored representation of a Web3 address."
type Address {
  fetchedCoinBalance: Wei
  fetchedCoinBalanceBlockNumber: Int
  hash: AddressHash
  contractCode: Data
  nonce: Int
  gasUsed: Int
  transactionsCount: Int
  tokenTransfersCount: Int
  smartContract: SmartContract
  transactions(after: String, before: String, first: Int, last: Int, count: Int, order: SortOrder = DESC): TransactionConnection
  tokenTransfers(after: String, before: String, first: Int, last: Int, count: Int): TokenTransferConnection
}

"A block of the chain."
type Block {
  consensus: Boolean
  difficulty: Decimal
  gasLimit: Decimal
  gasUsed: Decimal
  hash: FullHash
  minerHash: AddressHash
  nonce: NonceHash
  number: Int
  parentHash: FullHash
  size: Int
  timestamp: DateTime
  totalDifficulty: Decimal
  baseFeePerGas: Wei
  isEmpty: Boolean
}

"Models internal transactions."
type InternalTransaction implements Node {
  "The ID of an object"
  id: ID!
  callType: CallType
  createdContractCode: Data
  error: String
  gas: Decimal
  gasUsed: Decimal
  index: Int
  init: Data
  input: Data
  output: Data
  traceAddress: Json
  type: Type
  value: Wei
  createdContractAddressHash: AddressHash
  fromAddressHash: AddressHash
  toAddressHash: AddressHash
  transactionHash: FullHash
  blockNumber: Int
  transactionIndex: Int
}

"The representation of a verified Smart Contract."
type SmartContract {
  name: String
  compilerVersion: String
  optimization: Boolean
  contractSourceCode: String
  abi: Json
  addressHash: AddressHash
  constructorArguments: String
  evmVersion: String
  externalLibraries: Json
  verifiedViaSourcify: Boolean
  partiallyVerified: Boolean
  filePath: String
  isChangedBytecode: Boolean
  compilerSettings: Json
  verifiedViaEthBytecodeDb: Boolean
  language: Language
  optimizationRuns: Int
}

"Represents a token transfer between addresses."
type TokenTransfer implements Node {
  "The ID of an object"
  id: ID!
  amount: Decimal
  amounts: [Decimal]
  blockNumber: Int
  logIndex: Int
  tokenIds: [Decimal]
  fromAddressHash: AddressHash
  toAddressHash: AddressHash
  tokenContractAddressHash: AddressHash
  transactionHash: FullHash
  transaction: Transaction
  token: Token
}

"Represents a token."
type Token {
  name: String
  symbol: String
  totalSupply: Decimal
  decimals: Decimal
  type: String
  holderCount: Int
  circulatingMarketCap: Decimal
  iconUrl: String
  volume24h: Decimal
  contractAddressHash: AddressHash
}

"Models a Web3 transaction."
type Transaction implements Node {
  "The ID of an object"
  id: ID!
  cumulativeGasUsed: Decimal
  error: String
  gas: Decimal
  gasPrice: Wei
  gasUsed: Decimal
  hash: FullHash
  index: Int
  input: String
  nonce: NonceHash
  r: Decimal
  s: Decimal
  status: Status
  v: Decimal
  value: Wei
  blockHash: FullHash
  blockNumber: Int
  fromAddressHash: AddressHash
  toAddressHash: AddressHash
  createdContractAddressHash: AddressHash
  earliestProcessingStart: DateTime
  revertReason: String
  maxPriorityFeePerGas: Wei
  maxFeePerGas: Wei
  type: Int
  hasErrorInInternalTransactions: Boolean
  block: Block
  internalTransactions(after: String, before: String, first: Int, last: Int, count: Int): InternalTransactionConnection
}

type TransactionConnection { pageInfo: PageInfo! edges: [TransactionEdge] }
type TransactionEdge { node: Transaction cursor: String! }
type InternalTransactionConnection { pageInfo: PageInfo! edges: [InternalTransactionEdge] }
type InternalTransactionEdge { node: InternalTransaction cursor: String! }
type TokenTransferConnection { pageInfo: PageInfo! edges: [TokenTransferEdge] }
type TokenTransferEdge { node: TokenTransfer cursor: String! }

type Query {
  "Fetches an object given its ID"
  node("The ID of an object." id: ID!): Node
  "Gets an address by hash."
  address(hash: AddressHash!): Address
  "Gets addresses by address hash."
  addresses(hashes: [AddressHash!]!): [Address]
  "Gets a block by number."
  block(number: Int!): Block
  "Gets token transfers by token contract address hash."
  tokenTransfers(after: String, before: String, first: Int, last: Int, count: Int, tokenContractAddressHash: AddressHash!): TokenTransferConnection
  "Gets a transaction by hash."
  transaction(hash: FullHash!): Transaction
}
`;

/** The connection fields: their cost is the page size times the cost of what each item asks for. */
export const CONNECTION_FIELDS: ReadonlySet<string> = new Set([
  "Address.transactions",
  "Address.tokenTransfers",
  "Transaction.internalTransactions",
  "Query.tokenTransfers",
]);
