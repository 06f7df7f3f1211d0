/**
 * Pieces the verification benchmarks share: statistics, a cold switch on the compilation cache, counting wrappers
 * around the RPC client and the database (calls and statements per verification), a deployment helper and the
 * verification request itself.
 */

import type { Hex } from "viem";
import { httpFetch } from "../src/chain/http-fetch.js";
import type { Rpc } from "../src/chain/rpc.js";
import type { Db, Queryable } from "../src/db/db.js";
import type { CompilationCache, CompilerRegistry } from "../src/verifier/compilers/index.js";
import { rpc } from "../test/helpers/activity.js";

export const median = (xs: number[]) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
export const r1 = (x: number) => Math.round(x * 10) / 10;
export const r2 = (x: number) => Math.round(x * 100) / 100;
export const r3 = (x: number) => Math.round(x * 1000) / 1000;
export const summary = (xs: number[]) => ({
  median: r1(median(xs)),
  p90: r1(pct(xs, 90)),
  max: r1(Math.max(...xs)),
});

/**
 * The registry's cache behind a switch: while `cold`, lookups miss (writes still happen, as in a real cold
 * compile). Reaching the private field keeps the measured path the production one: same registry, same pool.
 */
export function coldSwitch(registry: CompilerRegistry): {
  set(cold: boolean): void;
  /** Resolves when the cache writes started so far are done (the registry does not wait for them). */
  settled(): Promise<void>;
} {
  const slot = registry as unknown as { cache: CompilationCache };
  const inner = slot.cache;
  let cold = false;
  const writing = new Set<Promise<void>>();
  slot.cache = {
    get: (k) => (cold ? Promise.resolve(undefined) : inner.get(k)),
    set: (k, o) => {
      const p = inner.set(k, o);
      writing.add(p);
      void p.catch(() => {}).finally(() => writing.delete(p));
      return p;
    },
  };
  return {
    set(c) {
      cold = c;
    },
    async settled() {
      await Promise.allSettled([...writing]);
    },
  };
}

/** Calls by method, reset by the caller between measurements. */
export type CallCounts = { total: number; byMethod: Record<string, number> };
export const newCounts = (): CallCounts => ({ total: 0, byMethod: {} });

/** The same RPC client, counting its calls by method into `counts` (the counter object may be swapped). */
export function countingRpc(inner: Rpc, counts: () => CallCounts): Rpc {
  return {
    ...inner,
    request<T>(method: string, params: unknown[]) {
      const c = counts();
      c.total++;
      c.byMethod[method] = (c.byMethod[method] ?? 0) + 1;
      return inner.request<T>(method, params);
    },
  };
}

/** The same database, counting statements (first words of their text) into `counts`. */
export function countingDb(inner: Db, counts: () => CallCounts): Db {
  const count = (sql: string) => {
    const c = counts();
    c.total++;
    const key = sql.trim().split(/\s+/).slice(0, 4).join(" ");
    c.byMethod[key] = (c.byMethod[key] ?? 0) + 1;
  };
  const wrap = (q: Queryable): Queryable => ({
    query(sql, params, options) {
      count(sql);
      return q.query(sql, params, options);
    },
    exec(sql) {
      count(sql);
      return q.exec(sql);
    },
  });
  return {
    ...inner,
    ...wrap(inner),
    kind: inner.kind,
    transaction: (fn) => inner.transaction((tx) => fn(wrap(tx))),
    close: () => inner.close(),
  };
}

export type Deployment = { address: Hex; txHash: Hex; blockNumber: number; creationInput: Hex };

export async function deploy(url: string, from: Hex, data: Hex): Promise<Deployment> {
  const txHash = await rpc<Hex>(url, "eth_sendTransaction", [{ from, data, gas: "0x1c9c380" }]);
  let receipt: { contractAddress: Hex; status: Hex; blockNumber: Hex } | null = null;
  // Automining answers the send before the receipt is always readable.
  for (let i = 0; i < 200 && !receipt; i++) {
    receipt = await rpc(url, "eth_getTransactionReceipt", [txHash]);
    if (!receipt) await new Promise((r) => setTimeout(r, 20));
  }
  if (receipt?.status !== "0x1") throw new Error(`deployment ${txHash} reverted or was not mined`);
  return {
    address: receipt.contractAddress.toLowerCase() as Hex,
    txHash,
    blockNumber: Number(receipt.blockNumber),
    creationInput: data,
  };
}

/**
 * One `POST /api/v1/solidity/sources:verify-standard-json` for one address, timed on the client; anything but a
 * verified result (`label` names the contract in the error) fails the run.
 */
/**
 * The bench's HTTP client: keep-alive node:http, as lean as forge's or Hardhat's clients. Node's fetch spends about
 * 1 ms of CPU per request on its own, in this same process, which the figures would count as the verifier's.
 */
const client = httpFetch({ maxBytes: 64 * 1024 * 1024 });

export async function postStandardJson(
  base: string,
  chainId: string | number,
  address: Hex,
  compiler: string,
  input: unknown,
  label: string,
): Promise<{ ms: number; match: string }> {
  const body = JSON.stringify({ contracts: [{ chainId, address }], compiler, input: JSON.stringify(input) });
  const t0 = performance.now();
  const res = await client(`${base}/api/v1/solidity/sources:verify-standard-json`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const json = (await res.json()) as any;
  const ms = performance.now() - t0;
  const item = json?.contractVerificationResults?.items?.[0];
  if (res.status !== 200 || !item || item.status === "FAILURE")
    throw new Error(`${label}: ${res.status} ${JSON.stringify(json).slice(0, 500)}`);
  return { ms, match: `${item.creationMatch ?? "-"}/${item.runtimeMatch ?? "-"}` };
}
