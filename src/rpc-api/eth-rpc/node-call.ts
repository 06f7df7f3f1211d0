import { httpFetch } from "../../chain/http-fetch.js";

/**
 * How a client's call is passed to the node (`/api/eth-rpc`'s proxied methods). Unlike the indexer's client, a
 * client's call is the client's own work: it is sent once, bounded in gas and time, and its failure is the
 * client's answer.
 */
export type NodeCallPolicy = {
  /** Most gas a proxied eth_call / eth_estimateGas may ask for (geth's RPCGasCap; 0: no cap). */
  gasCap: number;
  /** Time the node has to answer, ms; then the client gets an error (geth's RPCEVMTimeout is 5 s). */
  timeoutMs: number;
};

export const DEFAULT_NODE_CALL_POLICY: NodeCallPolicy = { gasCap: 50_000_000, timeoutMs: 5_000 };

/** Methods whose first parameter is a call object that the node executes with its `gas`. */
const EXECUTING = new Set(["eth_call", "eth_estimateGas"]);

/** The call object with `gas` at most `cap` (and set to it when absent, so a node without a cap of its own is bounded). */
export function capGas(method: string, params: unknown[], cap: number): unknown[] {
  if (!EXECUTING.has(method) || cap <= 0) return params;
  const [call, ...rest] = params;
  if (typeof call !== "object" || call === null || Array.isArray(call)) return params;
  const given = (call as { gas?: unknown }).gas;
  let gas: bigint | null = null;
  if (typeof given === "string" && /^0x[0-9a-fA-F]{1,64}$/.test(given)) gas = BigInt(given);
  else if (typeof given === "number" && Number.isSafeInteger(given) && given >= 0) gas = BigInt(given);
  // A malformed gas goes as sent: the node refuses it (it is not ours to reinterpret).
  if (given !== undefined && given !== null && gas === null) return params;
  const capped = gas === null || gas > BigInt(cap) ? BigInt(cap) : gas;
  return [{ ...call, gas: `0x${capped.toString(16)}` }, ...rest];
}

/** The node's JSON-RPC error, as the client gets it. */
export class NodeCallError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const fetchOnce = httpFetch({ maxBytes: 16 * 1024 * 1024 });

/** The connection was never made: the node saw nothing, so sending again cannot run the call twice. */
const neverSent = (e: unknown) => {
  const code = (e as { code?: unknown }).code;
  return code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN";
};

/**
 * Sends one client call to the node: once (again only when the connection was refused, so the node never saw
 * it; httpFetch also resends on a keep-alive socket the server had already closed), within `timeoutMs`.
 */
export async function callNode(
  url: string,
  method: string,
  params: unknown[],
  policy: NodeCallPolicy,
): Promise<unknown> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method,
    params: capGas(method, params, policy.gasCap),
  });
  const signal = AbortSignal.timeout(policy.timeoutMs);
  const send = () =>
    fetchOnce(url, { method: "POST", headers: { "content-type": "application/json" }, body, signal });
  let res: Response;
  try {
    res = await send().catch((e) => (neverSent(e) && !signal.aborted ? send() : Promise.reject(e)));
  } catch {
    if (signal.aborted)
      throw new NodeCallError(-32000, `execution aborted (timeout = ${policy.timeoutMs / 1000}s)`);
    throw new NodeCallError(-32000, "The node is unavailable");
  }
  let answer: { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
  try {
    answer = JSON.parse(await res.text());
  } catch {
    throw new NodeCallError(-32000, `The node answered HTTP ${res.status} without JSON-RPC`);
  }
  if (answer.error) {
    const e = answer.error;
    throw new NodeCallError(
      typeof e.code === "number" ? e.code : -32000,
      typeof e.message === "string" ? e.message : "The node refused the call",
      e.data,
    );
  }
  return answer.result ?? null;
}
