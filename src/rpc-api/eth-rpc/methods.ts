import type { Hex } from "viem";
import { indexedChainId } from "../../chain-store/checkpoint.js";
import { chainFor } from "../../verifier/submit.js";
import { balanceAt } from "../account/query.js";
import { indexedHead } from "../head.js";
import { quantity } from "../hex.js";
import type { LogFilter } from "../logs/filter.js";
import { filteredLogs } from "../logs/query.js";
import { asAddress, asHash } from "../params.js";
import type { RpcApiDeps } from "../reply.js";
import { callNode, DEFAULT_NODE_CALL_POLICY, NodeCallError } from "./node-call.js";
import { rpcLog } from "./view.js";

/** A JSON-RPC failure: the error object's code and message (and data from the node, when it gave some). */
export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const INVALID_PARAMS = -32602;
const SERVER_ERROR = -32000;

type Method = { arity: readonly number[]; run: (deps: RpcApiDeps, params: unknown[]) => Promise<unknown> };

/** A block tag or number (0x-hex as JSON-RPC, or decimal as Blockscout also takes): a number, or null for latest. */
function blockTag(v: unknown, head: number | null): number | null | undefined {
  if (v === undefined || v === null || v === "latest" || v === "pending" || v === "safe" || v === "finalized")
    return head;
  if (v === "earliest") return 0;
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === "string" && /^0x[0-9a-fA-F]{1,16}$/.test(v)) return Number.parseInt(v.slice(2), 16);
  if (typeof v === "string" && /^\d{1,16}$/.test(v)) return Number(v);
  return undefined;
}

async function getBalance(deps: RpcApiDeps, [address, tag]: unknown[]) {
  const a = typeof address === "string" ? asAddress(address) : null;
  if (!a) throw new RpcFailure(INVALID_PARAMS, "Query parameter 'address' is invalid");
  const head = await indexedHead(deps.db);
  const block = blockTag(tag, head);
  if (block === undefined) throw new RpcFailure(INVALID_PARAMS, "Query parameter 'block' is invalid");
  const value = block === null ? null : await balanceAt(deps.db, a, block);
  if (value === null) throw new RpcFailure(SERVER_ERROR, "Balance not found");
  return quantity(value);
}

/** One topic position: a hash, a list of hashes (any of them), or null (any). */
function topicValues(v: unknown): Hex[] | null {
  if (v === null || v === undefined) return null;
  const list = Array.isArray(v) ? v : [v];
  const out: Hex[] = [];
  for (const t of list) {
    const h = typeof t === "string" ? asHash(t) : null;
    if (!h) throw new RpcFailure(INVALID_PARAMS, "invalid topics");
    out.push(h);
  }
  return out.length ? out : null;
}

/** eth_getLogs from the index: at most 1000 logs, then `paging_options` {blockNumber, logIndex} asks for more. */
async function getLogs(deps: RpcApiDeps, [filter]: unknown[]) {
  if (typeof filter !== "object" || filter === null || Array.isArray(filter))
    throw new RpcFailure(INVALID_PARAMS, "Invalid params. Params must be a list.");
  const f = filter as Record<string, unknown>;
  let address = null;
  if (f.address !== undefined && f.address !== null) {
    // One address (Blockscout filters on one; a list of one is the same).
    const raw = Array.isArray(f.address) && f.address.length === 1 ? f.address[0] : f.address;
    address = typeof raw === "string" ? asAddress(raw) : null;
    if (!address) throw new RpcFailure(INVALID_PARAMS, "invalid address");
  }
  if (f.topics !== undefined && f.topics !== null && !Array.isArray(f.topics))
    throw new RpcFailure(INVALID_PARAMS, "invalid topics");
  const rawTopics = (f.topics as unknown[] | undefined) ?? [];
  const topics = [0, 1, 2, 3].map((i) => topicValues(rawTopics[i]));
  if (!address && topics.every((t) => t === null))
    throw new RpcFailure(INVALID_PARAMS, "Must supply one of address and topics");
  const head = await indexedHead(deps.db);
  let fromBlock: number | null | undefined;
  let toBlock: number | null | undefined;
  if (f.blockHash !== undefined) {
    const h = typeof f.blockHash === "string" ? asHash(f.blockHash) : null;
    const [b] = h
      ? await deps.db.query<{ number: string }>("select number from blocks where hash = $1", [
          Buffer.from(h.slice(2), "hex"),
        ])
      : [];
    if (!b) throw new RpcFailure(INVALID_PARAMS, "Invalid Block Hash");
    fromBlock = toBlock = Number(b.number);
  } else {
    fromBlock = blockTag(f.fromBlock, head);
    toBlock = blockTag(f.toBlock, head);
    if (fromBlock === undefined || toBlock === undefined)
      throw new RpcFailure(INVALID_PARAMS, "invalid block number");
    if (fromBlock === null || toBlock === null) return [];
  }
  let after = null;
  const paging = f.paging_options as { blockNumber?: unknown; logIndex?: unknown } | undefined;
  if (
    paging &&
    typeof paging === "object" &&
    paging.blockNumber !== undefined &&
    paging.logIndex !== undefined
  ) {
    const n = (v: unknown) =>
      typeof v === "string" && /^[0-9a-fA-F]{1,16}$/.test(v) ? Number.parseInt(v, 16) : null;
    const blockNumber = n(paging.blockNumber);
    const logIndex = n(paging.logIndex);
    if (blockNumber === null) throw new RpcFailure(INVALID_PARAMS, "invalid block number");
    if (logIndex === null) throw new RpcFailure(INVALID_PARAMS, "invalid log index");
    after = { blockNumber, logIndex };
  }
  const logFilter: LogFilter = { fromBlock, toBlock, address, topics, operators: {} };
  return (await filteredLogs(deps.db, logFilter, after)).map(rpcLog);
}

/**
 * A method the node answers (Blockscout proxies these): params passed as given (eth_call and eth_estimateGas with
 * their gas capped), sent once within the time limit (node-call.ts), the node's error passed back.
 */
const proxied = (method: string, arity: readonly number[]): Method => ({
  arity,
  run: async (deps, params) => {
    const { rpc } = chainFor(deps.chains, undefined);
    try {
      return await callNode(rpc.url, method, params, deps.nodeCalls ?? DEFAULT_NODE_CALL_POLICY);
    } catch (e) {
      if (e instanceof NodeCallError) throw new RpcFailure(e.code, e.message.split("\n")[0]!, e.data);
      throw e;
    }
  },
});

/**
 * The methods of Blockscout's `/api/eth-rpc` (Explorer.EthRPC): block number, balances, logs and the chain id
 * from the index; the rest from the indexed chain's node. Transactions and receipts come from the node too (the
 * index keeps no signatures), as do the gas price answers (no gas price oracle here).
 */
export const METHODS: Readonly<Record<string, Method>> = {
  eth_blockNumber: {
    arity: [0],
    run: async (deps) => {
      const head = await indexedHead(deps.db);
      return head === null ? null : quantity(head);
    },
  },
  eth_getBalance: { arity: [1, 2], run: getBalance },
  eth_getLogs: { arity: [1], run: getLogs },
  eth_chainId: {
    arity: [0],
    run: async (deps) => {
      const id = await indexedChainId(deps.db);
      return id === null ? null : quantity(id);
    },
  },
  eth_gasPrice: proxied("eth_gasPrice", [0]),
  eth_maxPriorityFeePerGas: proxied("eth_maxPriorityFeePerGas", [0]),
  eth_getTransactionByHash: proxied("eth_getTransactionByHash", [1]),
  eth_getTransactionReceipt: proxied("eth_getTransactionReceipt", [1]),
  eth_getTransactionCount: proxied("eth_getTransactionCount", [2]),
  eth_getCode: proxied("eth_getCode", [2]),
  eth_getStorageAt: proxied("eth_getStorageAt", [3]),
  eth_estimateGas: proxied("eth_estimateGas", [2]),
  eth_getBlockByNumber: proxied("eth_getBlockByNumber", [2]),
  eth_getBlockByHash: proxied("eth_getBlockByHash", [2]),
  eth_sendRawTransaction: proxied("eth_sendRawTransaction", [1]),
  eth_call: proxied("eth_call", [2]),
};
