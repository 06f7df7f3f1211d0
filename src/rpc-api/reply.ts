import type { Queryable } from "../db/db.js";
import type { Params } from "../http/etherscan-params.js";
import type { VerifierChain } from "../verifier/chain-clients.js";
import type { EtherscanApi } from "../verifier-apis/etherscan/actions.js";
import type { NodeCallPolicy } from "./eth-rpc/node-call.js";

/**
 * What the `/api` modules read: the index, the indexed chain's node (for the few answers Blockscout proxies), and
 * the verifier with its job queue (the `contract` module's verification actions; without it they are unknown).
 */
export type RpcApiDeps = {
  db: Queryable;
  chains: ReadonlyMap<string, VerifierChain>;
  /** How client calls reach the node (gas cap, time limit); the defaults when left out. */
  nodeCalls?: NodeCallPolicy;
  verification?: EtherscanApi;
};

/**
 * Blockscout's RPC envelope. `status` "2" is its "not processed yet" answer (internal transactions of blocks not
 * traced yet); errors carry the message in `message` and null or an empty list in `result`.
 */
export type Envelope = { status: "0" | "1" | "2"; message: string; result: unknown };

/** An answer that is not an envelope (the JSON-RPC-shaped actions), or an envelope with a non-200 status. */
export type Reply = { httpStatus: number; body: unknown; contentType?: string };

export type Answer = Envelope | Reply;
export type Handler = (deps: RpcApiDeps, p: Params) => Promise<Answer>;
export type Actions = Readonly<Record<string, Handler>>;

export const ok = (result: unknown): Envelope => ({ status: "1", message: "OK", result });
export const fail = (message: string, result: unknown = null): Envelope => ({ status: "0", message, result });
export const pending = (message: string, result: unknown[]): Envelope => ({ status: "2", message, result });

/** A list answer: Blockscout says `message` with an empty list when nothing matched. */
export const list = (items: unknown[], none: string): Envelope => (items.length ? ok(items) : fail(none, []));

export const isReply = (a: Answer): a is Reply => "httpStatus" in a;

/** JSON-RPC 2.0 bodies (the `eth_*` actions of the RPC API answer in this shape). */
export const rpcResult = (result: unknown, id: unknown) => ({ jsonrpc: "2.0", result, id });
export const rpcError = (code: number, message: string, id: unknown) => ({
  jsonrpc: "2.0",
  error: { code, message },
  id,
});
