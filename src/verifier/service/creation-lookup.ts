import { indexedRange } from "../../chain-store/checkpoint.js";
import { fromBytea, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { VerifierChain } from "../chain-clients.js";
import type { Hex } from "../matching/index.js";
import {
  type CallFrame,
  type CreationFacts,
  creationFromTransaction,
  findCreateFrame,
  indexedCreation,
  type RpcLike,
} from "./creation.js";

export type CreationLookupOptions = {
  /** On the indexed chain: how long to wait for the indexer to pass the head before asking the node. */
  indexWaitMs: number;
  /** Most JSON-RPC calls one address's node lookup may make. */
  maxCalls: number;
  /** Poll interval while waiting for the indexer. */
  pollMs?: number;
  /** Counters for benchmarks and logs: lookups that reached the node, and their RPC calls. */
  stats?: { lookups: number; calls: number };
};

export const DEFAULT_CREATION_LOOKUP: CreationLookupOptions = { indexWaitMs: 3000, maxCalls: 64 };

/** A creation, or why there is none (then verification matches the runtime code only and says so). */
export type CreationLookup =
  | { creation: CreationFacts; unavailable?: undefined }
  | { creation: null; unavailable: string };

/** The node cannot tell: the reason goes into the verification result. */
class Unavailable extends Error {}

/** Counts every call against the request's budget. */
function budgeted(rpc: RpcLike, max: number, counter: { calls: number }): RpcLike {
  return {
    request<T>(method: string, params: unknown[]): Promise<T> {
      if (counter.calls >= max) {
        return Promise.reject(
          new Unavailable(`the creation lookup stopped at its limit of ${max} RPC calls`),
        );
      }
      counter.calls++;
      return rpc.request<T>(method, params);
    },
  };
}

const hex = (n: number) => `0x${n.toString(16)}`;
const lower = (a: string | null | undefined) => (a ? (a.toLowerCase() as Hex) : null);
const firstLine = (e: unknown) => (e instanceof Error ? e.message.split("\n")[0]! : String(e));

/** The first block whose state holds code at `address` (binary search; the code is there at `head`). */
async function firstBlockWithCode(rpc: RpcLike, address: string): Promise<number> {
  const head = Number(await rpc.request<Hex>("eth_blockNumber", []));
  let lo = -1; // highest block known without code
  let hi = head; // lowest block known with code
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    let code: string;
    try {
      code = await rpc.request<string>("eth_getCode", [address, hex(mid)]);
    } catch (e) {
      if (e instanceof Unavailable) throw e;
      throw new Unavailable(
        `the node keeps no state of old blocks (eth_getCode at block ${mid} failed: ${firstLine(e)})`,
      );
    }
    if (code && code !== "0x" && code !== "0x0") hi = mid;
    else lo = mid;
  }
  if (hi === 0)
    throw new Unavailable("the code is part of the chain's genesis state: there is no creation transaction");
  return hi;
}

type Receipt = { contractAddress: Hex | null; transactionHash: Hex };
type TraceEntry = {
  type?: string;
  action?: { init?: string; from?: string };
  result?: { address?: string };
  transactionHash?: string;
};

/** The creation of `address` inside block `n`: a receipt's contractAddress, else the block's call traces. */
async function creationInBlock(rpc: RpcLike, address: string, n: number): Promise<CreationFacts> {
  const receipts = await rpc.request<Receipt[] | null>("eth_getBlockReceipts", [hex(n)]).catch(() => null);
  const direct = receipts?.find((r) => r.contractAddress?.toLowerCase() === address);
  if (direct) {
    const c = await creationFromTransaction({ rpc }, address, direct.transactionHash);
    if (c) return c;
  }
  const block = await rpc.request<{ hash: Hex; transactions: Hex[] } | null>("eth_getBlockByNumber", [
    hex(n),
    false,
  ]);
  if (!block) throw new Unavailable(`the node does not return block ${n}`);
  const traced = await rpc
    .request<Array<{ txHash?: Hex; result?: CallFrame }>>("debug_traceBlockByNumber", [
      hex(n),
      { tracer: "callTracer" },
    ])
    .catch(() => null);
  for (const [i, t] of (traced ?? []).entries()) {
    const frame = t.result ? findCreateFrame(t.result, address) : null;
    if (frame?.input) {
      return {
        transactionHash: lower(t.txHash ?? block.transactions[i])!,
        creator: lower(frame.from),
        blockNumber: n,
        blockHash: block.hash,
        creationInput: frame.input as Hex,
      };
    }
  }
  if (!traced) {
    const entries = await rpc.request<TraceEntry[]>("trace_block", [hex(n)]).catch(() => null);
    const e = entries?.find((t) => t.type === "create" && t.result?.address?.toLowerCase() === address);
    if (e?.action?.init && e.transactionHash) {
      return {
        transactionHash: lower(e.transactionHash)!,
        creator: lower(e.action.from),
        blockNumber: n,
        blockHash: block.hash,
        creationInput: e.action.init as Hex,
      };
    }
    if (!entries) {
      throw new Unavailable(
        `the contract was created inside a transaction of block ${n}, and the node offers no call traces (debug_traceBlockByNumber, trace_block)`,
      );
    }
  }
  throw new Unavailable(`no creation of the contract was found in block ${n}, where its code first appears`);
}

/** Asks the node: Otterscan's creator lookup where offered, else a binary search for the block, then that block. */
async function creationFromNode(rpc: RpcLike, address: string): Promise<CreationFacts> {
  const ots = await rpc
    .request<{ hash: Hex; creator: Hex } | null>("ots_getContractCreator", [address])
    .catch((e: unknown) => {
      if (e instanceof Unavailable) throw e;
      return null;
    });
  if (ots?.hash) {
    const c = await creationFromTransaction({ rpc }, address, ots.hash);
    if (c) return c;
  }
  return creationInBlock(rpc, address, await firstBlockWithCode(rpc, address));
}

type CacheRow = {
  transaction_hash: Uint8Array;
  creator: Uint8Array | null;
  block_number: string | number;
  block_hash: Uint8Array;
  init_code: Uint8Array;
};

async function cached(db: Queryable, chainId: string, address: string): Promise<CreationFacts | null> {
  const [row] = await db.query<CacheRow>(
    `select transaction_hash, creator, block_number, block_hash, init_code from creation_lookups
     where chain_id = $1 and address = $2`,
    [chainId, toBytea(address)],
  );
  if (!row) return null;
  return {
    transactionHash: fromBytea(row.transaction_hash),
    creator: row.creator ? fromBytea(row.creator) : null,
    blockNumber: Number(row.block_number),
    blockHash: fromBytea(row.block_hash),
    creationInput: fromBytea(row.init_code),
  };
}

async function remember(db: Queryable, chainId: string, address: string, c: CreationFacts): Promise<void> {
  if (c.blockNumber === null || !c.blockHash) return;
  await db.query(
    `insert into creation_lookups (chain_id, address, transaction_hash, creator, block_number, block_hash, init_code)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (chain_id, address) do update set transaction_hash = excluded.transaction_hash,
       creator = excluded.creator, block_number = excluded.block_number, block_hash = excluded.block_hash,
       init_code = excluded.init_code, found_at = now()`,
    [
      chainId,
      toBytea(address),
      toBytea(c.transactionHash),
      c.creator ? toBytea(c.creator) : null,
      c.blockNumber,
      toBytea(c.blockHash),
      toBytea(c.creationInput),
    ],
  );
}

/**
 * On the indexed chain, waits (bounded) for the indexer to pass the node's head as it was when asked: the
 * creation is then in our index if it is anywhere in the indexed range.
 */
async function waitForIndex(
  chain: VerifierChain,
  db: Queryable,
  address: string,
  o: CreationLookupOptions,
): Promise<CreationFacts | null> {
  if (o.indexWaitMs <= 0) return null;
  const head = Number(await chain.rpc.request<Hex>("eth_blockNumber", []));
  const deadline = Date.now() + o.indexWaitMs;
  for (;;) {
    const state = await indexedRange(db);
    const found = await indexedCreation(db, address);
    if (found) return found;
    if (state?.lastBlock != null && state.lastBlock >= head) return null;
    if (Date.now() >= deadline) return null;
    await new Promise((r) => setTimeout(r, Math.min(o.pollMs ?? 100, Math.max(1, deadline - Date.now()))));
  }
}

/**
 * The creation of a contract our index does not (yet) hold: on the indexed chain after a bounded wait for the
 * indexer, then from our cache, then from the node (at most `maxCalls` RPC calls). Never throws: a creation, or
 * the reason there is none.
 */
export async function lookUpCreation(
  chain: VerifierChain,
  db: Queryable | null,
  address: string,
  o: CreationLookupOptions = DEFAULT_CREATION_LOOKUP,
): Promise<CreationLookup> {
  const want = address.toLowerCase();
  const counter = { calls: 0 };
  const rpc = budgeted(chain.rpc, o.maxCalls, counter);
  try {
    if (chain.config.indexed && db) {
      const indexed = await waitForIndex(chain, db, want, o);
      if (indexed) return { creation: indexed };
    }
    const hit = db ? await cached(db, chain.config.id, want) : null;
    if (hit) {
      // Still on the chain? A reorg that dropped its block makes the search run again.
      const block = await rpc.request<{ hash: Hex } | null>("eth_getBlockByNumber", [
        hex(hit.blockNumber!),
        false,
      ]);
      if (block?.hash.toLowerCase() === hit.blockHash) return { creation: hit };
    }
    if (o.stats) o.stats.lookups++;
    const found = await creationFromNode(rpc, want);
    if (db) await remember(db, chain.config.id, want, found);
    return { creation: found };
  } catch (e) {
    return {
      creation: null,
      unavailable: e instanceof Unavailable ? e.message : `the node lookup failed: ${firstLine(e)}`,
    };
  } finally {
    if (o.stats) o.stats.calls += counter.calls;
  }
}
