import type { Params } from "../../http/etherscan-params.js";
import { indexedHead } from "../head.js";
import { hex, quantity, unix } from "../hex.js";
import { type ActionParams, param } from "../param-spec.js";
import { asInteger } from "../params.js";
import { type Actions, type Answer, fail, ok, type RpcApiDeps, rpcResult } from "../reply.js";
import { averageBlockTime, blockAtTime, blockByNumber, blockRewards } from "./query.js";

const required = (name: string) => `Query parameter '${name}' is required`;
const INVALID_BLOCK = "Invalid block number";

/** A block number parameter (decimal, non-negative), as ChainWeb.param_to_block_number. */
const blockNo = (v: string): number | null => {
  const n = asInteger(v);
  return n !== null && n >= 0 ? n : null;
};

async function getblockreward(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const raw = p.get("blockno");
  if (raw === undefined) return fail(required("blockno"));
  const n = blockNo(raw);
  if (n === null) return fail(INVALID_BLOCK);
  const block = await blockByNumber(deps.db, n);
  if (!block) return fail("Block does not exist");
  const rewards = await blockRewards(deps.db, n);
  // The miner's reward ("block" in trace_block, Blockscout's validator reward) and the uncles' rewards.
  const miner = rewards.find((r) => r.type === "block");
  const uncles = rewards
    .filter((r) => r.type === "uncle")
    .map((r, i) => ({ unclePosition: String(i), miner: hex(r.address), blockreward: r.reward }));
  return ok({
    blockNumber: String(block.number),
    timeStamp: Number(unix(block.timestamp)),
    blockMiner: hex(block.miner),
    blockReward: miner?.reward ?? "0",
    uncles,
    // Blockscout: the static reward x uncles / 32; the static reward is not known apart from the fees here.
    uncleInclusionReward:
      uncles.length && miner ? String((BigInt(miner.reward) * BigInt(uncles.length)) / 32n) : "0",
  });
}

async function getblocknobytime(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const rawTime = p.get("timestamp");
  if (rawTime === undefined) return fail(required("timestamp"));
  const rawClosest = p.get("closest");
  if (rawClosest === undefined) return fail(required("closest"));
  const t = asInteger(rawTime);
  if (t === null || t < 0) return fail("Invalid `timestamp` param");
  if (rawClosest !== "before" && rawClosest !== "after") return fail("Invalid `closest` param");
  const n = await blockAtTime(deps.db, new Date(t * 1000), rawClosest);
  return n === null ? fail("Block does not exist") : ok({ blockNumber: String(n) });
}

async function getblockcountdown(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const raw = p.get("blockno");
  if (raw === undefined) return fail(required("blockno"));
  const target = blockNo(raw);
  if (target === null) return fail(INVALID_BLOCK);
  const head = await indexedHead(deps.db);
  const average = await averageBlockTime(deps.db);
  if (head === null || average === null) return fail("Chain is indexing now, try again later");
  const remaining = target - head;
  if (remaining <= 0) return fail("Error! Block number already pass");
  const seconds = Math.round(remaining * average * 10) / 10;
  return ok({
    CurrentBlock: String(head),
    CountdownBlock: String(target),
    RemainingBlock: String(remaining),
    // Elixir's Float.to_string keeps one decimal (10.0).
    EstimateTimeInSec: Number.isInteger(seconds) ? seconds.toFixed(1) : String(seconds),
  });
}

/** `eth_block_number`: JSON-RPC shaped; `id` is echoed (default 1). */
async function ethBlockNumber(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const head = await indexedHead(deps.db);
  return { httpStatus: 200, body: rpcResult(head === null ? null : quantity(head), p.get("id") ?? 1) };
}

/** Each action's parameters (the OpenAPI document's `x-actions`). */
export const blockParams: ActionParams = {
  getblockreward: [param.req("blockno", "integer", "Block number")],
  getblocknobytime: [
    param.req("timestamp", "integer", "Time (unix seconds)"),
    { ...param.req("closest", "string", "The block before or after that time"), enum: ["before", "after"] },
  ],
  getblockcountdown: [param.req("blockno", "integer", "Block number to count down to")],
  eth_block_number: [param.opt("id", "string", "JSON-RPC request id echoed in the answer (default 1)")],
};

export const blockActions: Actions = {
  getblockreward,
  getblocknobytime,
  getblockcountdown,
  eth_block_number: ethBlockNumber,
};
