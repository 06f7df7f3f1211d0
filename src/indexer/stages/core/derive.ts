import type { Address, Hash, Hex } from "viem";
import type { CallFrame, FetchedBlock } from "../../../chain/types.js";
import { unknownMembers } from "./members.js";
import { type BlockTokenLogs, tokenLogsOf } from "./token-logs.js";

/** Rows of the core tables for one batch, column-wise ready for `unnest` inserts. Pure: no I/O. */
export type BlockRow = {
  number: number;
  hash: Hash;
  parentHash: Hash;
  timestamp: number;
  miner: Address;
  gasUsed: string;
  gasLimit: string;
  baseFeePerGas: string | null;
  size: number | null;
  transactionCount: number;
  nonce: Hex | null;
  difficulty: string | null;
  totalDifficulty: string | null;
  extraData: Hex | null;
  stateRoot: Hash | null;
  blobGasUsed: string | null;
  excessBlobGas: string | null;
  uncles: Hash[];
  withdrawalsCount: number | null;
  transactionFees: string;
  burntFees: string | null;
  priorityFees: string | null;
  /** EIP-4844: the block's type-3 transactions, and the blob gas price the first of them paid (null without). */
  blobTransactionCount: number;
  blobGasPrice: string | null;
  /** Whether the node gave call traces for this block (internal transactions stored). */
  tracesIndexed: boolean;
};

export type TransactionRow = {
  hash: Hash;
  blockNumber: number;
  index: number;
  from: Address;
  to: Address | null;
  value: string;
  nonce: number;
  gas: string;
  gasPrice: string | null;
  maxFeePerGas: string | null;
  maxPriorityFeePerGas: string | null;
  type: number;
  input: Hex;
  status: number | null;
  gasUsed: string;
  cumulativeGasUsed: string;
  effectiveGasPrice: string | null;
  contractAddress: Address | null;
  maxFeePerBlobGas: string | null;
  blobGasUsed: string | null;
  blobGasPrice: string | null;
  blobVersionedHashes: Hash[] | null;
  blockHash: Hash;
  /** Return data of the top-level frame of a failed transaction (raw hex, decoded by the explorer), when traced. */
  revertReason: Hex | null;
  /** Members of the transaction and its receipt that Lookout does not read, as the node sent them (JSON). */
  unknownMembers: string | null;
  /** Some of its logs are token transfers (the rows the tokens stage writes): `type=token_transfer`. */
  hasTokenTransfers: boolean;
};

export type LogRow = {
  blockNumber: number;
  logIndex: number;
  transactionHash: Hash;
  transactionIndex: number;
  address: Address;
  topics: [Hex | null, Hex | null, Hex | null, Hex | null];
  data: Hex;
};

export type CreationRow = {
  blockNumber: number;
  transactionIndex: number;
  creationIndex: number;
  address: Address;
  creator: Address;
  transactionHash: Hash;
  kind: "transaction" | "create" | "create2";
  initCode: Hex;
  runtimeCode: Hex | null;
};

export type CoreRows = {
  blocks: BlockRow[];
  transactions: TransactionRow[];
  logs: LogRow[];
  creations: CreationRow[];
};

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000" as Address;
const dec = (h: Hex | null | undefined): string | null => (h == null ? null : BigInt(h).toString());
const num = (h: Hex | null | undefined): number | null => (h == null ? null : Number(h));

/** Successful CREATE/CREATE2 frames below the root, in execution order. A reverted frame drops its subtree. */
export function internalCreations(root: CallFrame): CallFrame[] {
  const out: CallFrame[] = [];
  const walk = (f: CallFrame) => {
    for (const c of f.calls ?? []) {
      if (c.error) continue;
      if ((c.type === "CREATE" || c.type === "CREATE2") && c.to) out.push(c);
      walk(c);
    }
  };
  if (!root.error) walk(root);
  return out;
}

/**
 * Whether the blocks can have contract creations (rows of `contract_creations`, as deriveCoreRows finds them): a
 * transaction without a recipient, or a creation in a call tree (`internalCreations`). False lets the stages that
 * read the batch's creations skip their statements; true may still find none (a failed creation by a transaction).
 */
export function mayCreateContracts(fetched: readonly FetchedBlock[]): boolean {
  return fetched.some(
    ({ block, calls }) =>
      block.transactions.some((tx) => tx.to == null) ||
      (calls ?? []).some((root) => root && internalCreations(root).length > 0),
  );
}

export function deriveCoreRows(
  fetched: readonly FetchedBlock[],
  logsOf: (b: FetchedBlock) => BlockTokenLogs = tokenLogsOf,
): CoreRows {
  const rows: CoreRows = { blocks: [], transactions: [], logs: [], creations: [] };
  const withTransfers = new Set(
    fetched.flatMap((b) => logsOf(b).transfers.map((t) => t.transactionHash.toLowerCase())),
  );
  for (const { block, receipts, calls } of fetched) {
    const number = Number(block.number);
    const baseFee = block.baseFeePerGas == null ? null : BigInt(block.baseFeePerGas);
    let fees = 0n;
    let tips = 0n;
    let blobTransactionCount = 0;
    let blobGasPrice: string | null = null;
    block.transactions.forEach((tx, i) => {
      const r = receipts[i]!;
      const status = num(r.status);
      const type = num(tx.type) ?? 0;
      if (type === 3) {
        blobTransactionCount++;
        blobGasPrice ??= dec(r.blobGasPrice);
      }
      const extra = unknownMembers(tx, r);
      rows.transactions.push({
        hash: tx.hash,
        blockNumber: number,
        index: i,
        // A type Lookout does not know may lack members every known type has: stored with neutral values (the
        // members it did send are kept in unknownMembers), so the indexer goes on.
        from: tx.from ?? ZERO_ADDRESS,
        to: tx.to ?? null,
        value: dec(tx.value) ?? "0",
        nonce: num(tx.nonce) ?? 0,
        gas: dec(tx.gas) ?? "0",
        gasPrice: dec(tx.gasPrice),
        maxFeePerGas: dec(tx.maxFeePerGas),
        maxPriorityFeePerGas: dec(tx.maxPriorityFeePerGas),
        type,
        input: tx.input ?? "0x",
        status,
        gasUsed: dec(r.gasUsed) ?? "0",
        cumulativeGasUsed: dec(r.cumulativeGasUsed) ?? "0",
        effectiveGasPrice: dec(r.effectiveGasPrice ?? tx.gasPrice),
        contractAddress: r.contractAddress ?? null,
        maxFeePerBlobGas: dec(tx.maxFeePerBlobGas),
        blobGasUsed: dec(r.blobGasUsed),
        blobGasPrice: dec(r.blobGasPrice),
        blobVersionedHashes: tx.blobVersionedHashes ?? null,
        blockHash: block.hash,
        revertReason: status === 0 ? (calls?.[i]?.output ?? null) : null,
        unknownMembers: extra ? JSON.stringify(extra) : null,
        hasTokenTransfers: withTransfers.has(tx.hash.toLowerCase()),
      });
      const gasUsed = BigInt(r.gasUsed ?? "0x0");
      const price = BigInt(r.effectiveGasPrice ?? tx.gasPrice ?? "0x0");
      fees += gasUsed * price;
      if (baseFee != null && price > baseFee) tips += gasUsed * (price - baseFee);
      for (const log of r.logs ?? []) {
        const t = log.topics;
        rows.logs.push({
          blockNumber: number,
          logIndex: Number(log.logIndex),
          transactionHash: tx.hash,
          transactionIndex: i,
          address: log.address,
          topics: [t[0] ?? null, t[1] ?? null, t[2] ?? null, t[3] ?? null],
          data: log.data,
        });
      }
      // Receipts of failed creations may still name the would-be address; only successful ones count.
      if (tx.to == null && r.contractAddress && status !== 0) {
        const root = calls?.[i];
        rows.creations.push({
          blockNumber: number,
          transactionIndex: i,
          creationIndex: 0,
          address: r.contractAddress,
          creator: tx.from,
          transactionHash: tx.hash,
          kind: "transaction",
          initCode: tx.input,
          runtimeCode: root?.output ?? null,
        });
      }
      const root = calls?.[i];
      if (root && status !== 0) {
        internalCreations(root).forEach((c, k) => {
          rows.creations.push({
            blockNumber: number,
            transactionIndex: i,
            creationIndex: k + 1,
            address: c.to!,
            creator: c.from,
            transactionHash: tx.hash,
            kind: c.type === "CREATE2" ? "create2" : "create",
            initCode: c.input ?? "0x",
            runtimeCode: c.output ?? null,
          });
        });
      }
    });
    rows.blocks.push({
      number,
      hash: block.hash,
      parentHash: block.parentHash,
      timestamp: Number(block.timestamp),
      miner: block.miner,
      gasUsed: dec(block.gasUsed)!,
      gasLimit: dec(block.gasLimit)!,
      baseFeePerGas: dec(block.baseFeePerGas),
      size: num(block.size),
      transactionCount: block.transactions.length,
      nonce: block.nonce ?? null,
      difficulty: dec(block.difficulty),
      totalDifficulty: dec(block.totalDifficulty),
      extraData: block.extraData ?? null,
      stateRoot: block.stateRoot ?? null,
      blobGasUsed: dec(block.blobGasUsed),
      excessBlobGas: dec(block.excessBlobGas),
      uncles: block.uncles ?? [],
      withdrawalsCount: block.withdrawals ? block.withdrawals.length : null,
      transactionFees: fees.toString(),
      burntFees: baseFee == null ? null : (BigInt(block.gasUsed) * baseFee).toString(),
      priorityFees: baseFee == null ? null : tips.toString(),
      blobTransactionCount,
      blobGasPrice,
      tracesIndexed: calls != null,
    });
  }
  return rows;
}
