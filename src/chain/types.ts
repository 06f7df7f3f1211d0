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
  maxFeePerBlobGas?: Hex;
  blobVersionedHashes?: Hash[];
  /**
   * OP-stack deposits (type 0x7e): the L1 source, the coin minted to `from` first, the system flag (op-geth sends
   * `true` and only then; anvil a quantity).
   */
  sourceHash?: Hash;
  mint?: Hex;
  isSystemTx?: boolean | Hex;
  /** EIP-7702 (type 4): the authorizations the transaction carries. */
  authorizationList?: RpcAuthorization[];
};

/** One EIP-7702 authorization tuple as nodes send it (`yParity`; some nodes also or only send `v`). */
export type RpcAuthorization = {
  chainId: Hex;
  address: Address;
  nonce: Hex;
  yParity?: Hex;
  v?: Hex;
  r: Hex;
  s: Hex;
};

export type RpcWithdrawal = { index: Hex; validatorIndex: Hex; address: Address; amount: Hex };

export type RpcBlock = {
  number: Hex;
  hash: Hash;
  parentHash: Hash;
  timestamp: Hex;
  miner: Address;
  gasUsed: Hex;
  gasLimit: Hex;
  baseFeePerGas?: Hex | null;
  size?: Hex;
  nonce?: Hex | null;
  /** 0 since the merge (proof of stake): no block reward. */
  difficulty?: Hex | null;
  totalDifficulty?: Hex | null;
  extraData?: Hex;
  stateRoot?: Hash;
  blobGasUsed?: Hex | null;
  excessBlobGas?: Hex | null;
  uncles?: Hash[];
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
  blobGasUsed?: Hex;
  blobGasPrice?: Hex;
  logs: RpcLog[];
  /** OP stack: the L1 data fee the sender paid and its inputs (quantities, `l1FeeScalar` a decimal string). */
  l1Fee?: Hex | null;
  l1GasPrice?: Hex | null;
  l1GasUsed?: Hex | null;
  l1FeeScalar?: string | null;
  l1BaseFeeScalar?: Hex | null;
  l1BlobBaseFee?: Hex | null;
  l1BlobBaseFeeScalar?: Hex | null;
  operatorFeeScalar?: Hex | null;
  operatorFeeConstant?: Hex | null;
  daFootprintGasScalar?: Hex | null;
  depositNonce?: Hex | null;
  depositReceiptVersion?: Hex | null;
};

/** A frame of geth's callTracer. */
export type CallFrame = {
  type: string;
  from: Address;
  to?: Address;
  value?: Hex;
  gas?: Hex;
  gasUsed?: Hex;
  input?: Hex;
  output?: Hex;
  error?: string;
  revertReason?: string;
  calls?: CallFrame[];
};

/** A trace of the parity/OpenEthereum `trace_block` style. */
export type ParityTrace = {
  type: "call" | "create" | "suicide" | "reward";
  action: {
    from?: Address;
    to?: Address;
    value?: Hex;
    gas?: Hex;
    input?: Hex;
    callType?: string;
    init?: Hex;
    creationMethod?: string;
    /** suicide: the destroyed contract, its balance and the beneficiary */
    address?: Address;
    balance?: Hex;
    refundAddress?: Address;
    /** reward: the beneficiary and the kind ('block', 'uncle', ...) */
    author?: Address;
    rewardType?: string;
  };
  result?: { address?: Address; code?: Hex; gasUsed?: Hex; output?: Hex } | null;
  error?: string;
  transactionPosition?: number;
  traceAddress: number[];
};

export type BlockReward = { address: Address; type: string; value: Hex };

/** An account in a prestate diff: only the fields the tracer reports (unchanged ones may be left out). */
export type PrestateAccount = { balance?: Hex; nonce?: number | Hex };

/** One entry of `debug_traceBlockByNumber` with `prestateTracer` in diff mode: one transaction's state changes. */
export type PrestateDiffTrace = {
  txHash?: Hash;
  result: { pre?: Record<string, PrestateAccount>; post?: Record<string, PrestateAccount> };
};

/** Everything fetched for one block. `calls` is per transaction, in order, when the node offers them. */
export type FetchedBlock = {
  block: RpcBlock;
  receipts: RpcReceipt[];
  calls: CallFrame[] | null;
  /** Block and uncle rewards, where the node reports them (parity-style traces); null when it does not. */
  rewards?: BlockReward[] | null;
  /**
   * The prestate diffs per transaction, in order, where the node offers them (`caps.prestateDiff`); null otherwise.
   * Fetched with the block (two stages read them: exact balance changes, the authorities' start nonces).
   */
  prestate?: PrestateDiffTrace[] | null;
  /**
   * What each indexer stage's `afterFetch` brought for this block, by stage id. A stage reads only its own, through
   * its `stageSlot` (indexer/pipeline/extension.ts); what two stages need is a typed member above.
   */
  extra: Record<string, unknown>;
};
