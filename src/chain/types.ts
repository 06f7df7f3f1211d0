import type { Address, Hash, Hex } from "viem";

/** JSON-RPC objects as nodes send them (quantities as hex strings). Only the fields we read. */
export type RpcTransaction = {
  hash: Hash;
  blockNumber: Hex;
  transactionIndex: Hex;
  from: Address;
  to: Address | null;
  value: Hex;
  nonce: Hex;
  gas: Hex;
  gasPrice?: Hex;
  maxFeePerGas?: Hex;
  maxPriorityFeePerGas?: Hex;
  type?: Hex;
  input: Hex;
};

export type RpcWithdrawal = { index: Hex; validatorIndex: Hex; address: Address; amount: Hex };

export type RpcBlock = {
  number: Hex;
  hash: Hash;
  parentHash: Hash;
  timestamp: Hex;
  miner: Address;
  /** 0 since the merge (proof of stake): no block reward. */
  difficulty?: Hex;
  gasUsed: Hex;
  gasLimit: Hex;
  baseFeePerGas?: Hex | null;
  size?: Hex;
  transactions: RpcTransaction[];
  withdrawals?: RpcWithdrawal[];
};

export type RpcLog = {
  address: Address;
  topics: Hex[];
  data: Hex;
  logIndex: Hex;
  transactionHash: Hash;
  transactionIndex: Hex;
  blockNumber: Hex;
  blockHash: Hash;
  removed?: boolean;
};

export type RpcReceipt = {
  transactionHash: Hash;
  transactionIndex: Hex;
  blockHash: Hash;
  status?: Hex;
  gasUsed: Hex;
  cumulativeGasUsed: Hex;
  effectiveGasPrice?: Hex;
  contractAddress?: Address | null;
  logs: RpcLog[];
};

/** A frame of geth's callTracer. */
export type CallFrame = {
  type: string;
  from: Address;
  to?: Address;
  value?: Hex;
  input?: Hex;
  output?: Hex;
  error?: string;
  calls?: CallFrame[];
};

/** A trace of the parity/OpenEthereum `trace_block` style. */
export type ParityTrace = {
  type: "call" | "create" | "suicide" | "reward";
  action: { from?: Address; value?: Hex; init?: Hex; creationMethod?: string; address?: Address };
  result?: { address?: Address; code?: Hex } | null;
  error?: string;
  transactionPosition?: number;
  traceAddress: number[];
};

/** Everything fetched for one block. `traces` is per transaction, in order, when the node offers them. */
export type FetchedBlock = {
  block: RpcBlock;
  receipts: RpcReceipt[];
  calls: CallFrame[] | null;
  /** Extra per-block data fetched by indexer extensions, keyed by extension name. */
  extra: Record<string, unknown>;
};
