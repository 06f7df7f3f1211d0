import type { Hex } from "viem";
import type { Params } from "../../http/etherscan-params.js";
import { indexedHead } from "../head.js";
import { type ActionParams, param } from "../param-spec.js";
import { asAddress, asHash, asInteger } from "../params.js";
import { type Actions, type Answer, fail, list, type RpcApiDeps } from "../reply.js";
import { type LogFilter, TOPIC_PAIRS } from "./filter.js";
import { filteredLogs } from "./query.js";
import { logItem } from "./view.js";

const ONE_OF = ["address", "topic0", "topic1", "topic2", "topic3"];

/** The parameters Blockscout requires, in its message's order: the range, one filter, the pairs' operators. */
function missingParams(p: Params): string[] {
  const range = ["fromBlock", "toBlock"].filter((k) => p.get(k) === undefined);
  const anyFilter = ONE_OF.some((k) => p.get(k) !== undefined);
  if (range.length || !anyFilter) return anyFilter ? range : [...range, "address and/or topic{x}"];
  return TOPIC_PAIRS.filter(
    (pair) =>
      p.get(`topic${pair[0]}`) !== undefined &&
      p.get(`topic${pair[1]}`) !== undefined &&
      p.get(`topic${pair[0]}_${pair[1]}_opr`) === undefined,
  )
    .map((pair) => `topic${pair[0]}_${pair[1]}_opr`)
    .reverse();
}

async function blockParam(deps: RpcApiDeps, v: string): Promise<number | null> {
  return v === "latest" ? ((await indexedHead(deps.db)) ?? 0) : asInteger(v);
}

async function getLogs(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const missing = missingParams(p);
  if (missing.length) return fail(`Required query parameters missing: ${missing.join(", ")}`);
  const fromBlock = await blockParam(deps, p.get("fromBlock")!);
  if (fromBlock === null) return fail("Invalid fromBlock format");
  const toBlock = await blockParam(deps, p.get("toBlock")!);
  if (toBlock === null) return fail("Invalid toBlock format");
  const rawAddress = p.get("address");
  const address = rawAddress === undefined ? null : asAddress(rawAddress);
  if (rawAddress !== undefined && !address) return fail("Invalid address format");
  const operators: LogFilter["operators"] = {};
  for (const pair of TOPIC_PAIRS) {
    const key = `topic${pair[0]}_${pair[1]}_opr`;
    const op = p.get(key);
    if (op === undefined) continue;
    if (op !== "and" && op !== "or") return fail(`Invalid ${key} format`);
    operators[pair] = op;
  }
  // A topic that is not a 32-byte hash is dropped from the filter, as Blockscout's sanitize_filter_topics.
  const topics = [0, 1, 2, 3].map((i) => {
    const t = asHash(p.get(`topic${i}`));
    return t ? [t as Hex] : null;
  });
  const rows = await filteredLogs(deps.db, { fromBlock, toBlock, address, topics, operators }, null);
  return list(rows.map(logItem), "No logs found");
}

/** The action's parameters (the OpenAPI document's `x-actions`): the range, and an address or a topic at least. */
export const logsParams: ActionParams = {
  getlogs: [
    param.req("fromBlock", "string", "First block: a number or `latest`"),
    param.req("toBlock", "string", "Last block: a number or `latest`"),
    { ...param.opt("address", "address", "Emitting contract"), required: "one-of:filter" },
    ...[0, 1, 2, 3].map((i) => ({
      ...param.opt(`topic${i}`, "hash", `Topic ${i}`),
      required: "one-of:filter" as const,
    })),
    ...TOPIC_PAIRS.map((pair) => ({
      ...param.opt(
        `topic${pair[0]}_${pair[1]}_opr`,
        "string",
        `How topic${pair[0]} and topic${pair[1]} combine (required when both are given)`,
      ),
      enum: ["and", "or"],
    })),
  ],
};

export const logsActions: Actions = { getlogs: getLogs };
