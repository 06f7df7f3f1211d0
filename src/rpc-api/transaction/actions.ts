import { fromByteaOrNull } from "../../db/bytes.js";
import type { Params } from "../../http/etherscan-params.js";
import { indexedHead } from "../head.js";
import { hex, hexOr, unix } from "../hex.js";
import { type ActionParams, param } from "../param-spec.js";
import { asHash, asInteger } from "../params.js";
import { type Actions, type Answer, fail, ok, type RpcApiDeps } from "../reply.js";
import { transactionByHash, transactionError, transactionLogs, transactionStatus } from "./query.js";

const TXHASH_REQUIRED = "Query parameter txhash is required";
const INVALID_TXHASH = "Invalid txhash format";
/** Blockscout's page size for a transaction's logs in gettxinfo. */
const LOGS_PAGE = 50;
/** Blockscout's text for a failed transaction whose call frames are not indexed yet (its atom, spaced). */
const AWAITING = "awaiting internal transactions";

function txhash(p: Params): { hash: `0x${string}` } | { error: Answer } {
  const raw = p.get("txhash");
  if (raw === undefined) return { error: fail(TXHASH_REQUIRED) };
  const hash = asHash(raw);
  return hash ? { hash } : { error: fail(INVALID_TXHASH) };
}

/**
 * `gettxinfo`: the transaction and a page of its logs; `next_page_params` (the request's parameters with the last
 * log's `block_number` and `index` and `items_count`) asks for the next page, which reads after that `index`.
 */
async function gettxinfo(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const h = txhash(p);
  if ("error" in h) return h.error;
  const t = await transactionByHash(deps.db, h.hash);
  if (!t) return fail("Transaction not found");
  const after = asInteger(p.get("index"));
  const rows = await transactionLogs(deps.db, h.hash, after, LOGS_PAGE + 1);
  const more = rows.length > LOGS_PAGE;
  const logs = rows.slice(0, LOGS_PAGE);
  const last = logs.at(-1);
  const head = (await indexedHead(deps.db)) ?? Number(t.block_number);
  const itemsCount = (asInteger(p.get("items_count")) ?? 0) + logs.length;
  return ok({
    hash: hex(t.hash),
    timeStamp: unix(t.timestamp),
    blockNumber: String(t.block_number),
    confirmations: String(head - Number(t.block_number)),
    success: t.status === 1,
    from: hex(t.from_address),
    to: hexOr(t.to_address),
    value: t.value,
    input: hex(t.input),
    gasLimit: t.gas,
    gasUsed: t.gas_used,
    gasPrice: t.gas_price ?? "",
    logs: logs.map((l) => ({
      address: hex(l.address),
      topics: [l.topic0, l.topic1, l.topic2, l.topic3].map((x) => fromByteaOrNull(x)),
      data: hex(l.data),
      index: String(l.log_index),
    })),
    revertReason: t.revert_reason ?? "",
    next_page_params:
      more && last
        ? {
            module: "transaction",
            action: "gettxinfo",
            txhash: p.get("txhash"),
            block_number: Number(last.block_number),
            index: last.log_index,
            items_count: itemsCount,
          }
        : null,
  });
}

async function gettxreceiptstatus(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const h = txhash(p);
  if ("error" in h) return h.error;
  const t = await transactionStatus(deps.db, h.hash);
  const status = t === null || t.status === null ? "" : t.status === 1 ? "1" : "0";
  return ok({ status });
}

async function getstatus(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const h = txhash(p);
  if ("error" in h) return h.error;
  const t = await transactionError(deps.db, h.hash);
  // Blockscout's Chain.transaction_to_status: the top frame's error as the node wrote it once traced.
  if (t === null || t.status !== 0) return ok({ isError: "0", errDescription: "" });
  return ok({ isError: "1", errDescription: (t.traced ? t.error : null) ?? AWAITING });
}

const TXHASH = param.req("txhash", "hash", "Transaction hash");

/** Each action's parameters (the OpenAPI document's `x-actions`). */
export const transactionParams: ActionParams = {
  gettxinfo: [
    TXHASH,
    param.opt(
      "index",
      "integer",
      "Logs page: the log index to continue after (from the previous answer's next_page_params)",
    ),
    param.opt("items_count", "integer", "Logs page: how many logs came before (from next_page_params)"),
  ],
  gettxreceiptstatus: [TXHASH],
  getstatus: [TXHASH],
};

export const transactionActions: Actions = { gettxinfo, gettxreceiptstatus, getstatus };
