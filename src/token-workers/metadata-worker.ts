import type { Address, Hex } from "viem";
import type { Rpc } from "../chain/rpc.js";
import { fromBytea, toBytea } from "../db/bytes.js";
import type { Queryable } from "../db/db.js";
import { decodeStringResult, SELECTORS, uint256Arg } from "./calls.js";
import {
  type AllowedHost,
  type Failure,
  failure,
  fetchTokenMetadata,
  type Gateways,
  type MetadataResult,
  type RetryPolicy,
  type RetryState,
  recordFailure,
} from "./metadata/index.js";

export type MetadataFetchOptions = {
  gateways?: Partial<Pick<Gateways, "ipfs" | "arweave">>;
  allowedHosts?: readonly AllowedHost[];
  policy?: RetryPolicy;
  /** Instances fetched per round, and at once. */
  batch?: number;
  concurrency?: number;
  timeoutMs?: number;
  maxBytes?: number;
  /** Told the instances of one token whose metadata a round stored (the socket's `fetched_token_instance_metadata`). */
  onFetched?: (token: Address, ids: string[]) => void;
};

/** tokenURI(id) for ERC-721/ERC-404, uri(id) for ERC-1155, at the latest block. A revert is a permanent failure. */
export async function readTokenUri(
  rpc: Rpc,
  token: Address,
  tokenType: string,
  id: bigint,
): Promise<{ ok: true; uri: string } | Failure> {
  const selector = tokenType === "ERC-1155" ? SELECTORS.uri : SELECTORS.tokenURI;
  let data: Hex;
  try {
    data = await rpc.request<Hex>("eth_call", [
      { to: token, data: `${selector}${uint256Arg(id)}` },
      "latest",
    ]);
  } catch (e) {
    return failure("vm_execution_error", `VM execution error: ${(e as Error).message.split("\n")[0]}`);
  }
  const uri = decodeStringResult(data);
  if (uri === null) return failure("vm_execution_error", "the URI call did not return a string");
  if (uri === "") return failure("no_uri", "the contract returned an empty URI");
  return { ok: true, uri };
}

/** How long a claimed instance is left to its worker: well above one fetch's time limit. */
const CLAIM_MS = 5 * 60_000;

type DueRow = {
  token_address: Uint8Array;
  token_id: string;
  token_type: string;
  fetch_attempts: number;
  error_reason: string | null;
};

/**
 * One round of the metadata fetcher: takes the instances that are due (never fetched, backoff expired, or a
 * refetch requested), fetches each (contract URI → document), stores the metadata or the failure with its reason
 * and the next retry (exponential backoff; give-up after repeated failures, as retryPolicy decides).
 * Returns how many instances it handled.
 */
export async function fetchDueMetadata(
  db: Queryable,
  rpc: Rpc,
  o: MetadataFetchOptions = {},
): Promise<number> {
  // Claimed by pushing retry_at past the fetch's time limit: a worker on another process skips these rows, and
  // if this one dies mid-fetch they fall due again when the claim runs out (no separate lease column needed).
  const due = await db.query<DueRow>(
    `update token_instances t set retry_at = now() + $2 * interval '1 millisecond'
     from (select token_address, token_id from token_instances
           where not gave_up and retry_at <= now() order by retry_at limit $1 for update skip locked) d
     where t.token_address = d.token_address and t.token_id = d.token_id
     returning t.token_address, t.token_id::text as token_id, t.token_type, t.fetch_attempts, t.error_reason`,
    [o.batch ?? 20, CLAIM_MS],
  );
  const queue = [...due];
  const fetched = new Map<Address, string[]>();
  const worker = async () => {
    for (let r = queue.shift(); r; r = queue.shift())
      if (await fetchOne(db, rpc, r, o)) {
        const token = fromBytea(r.token_address) as Address;
        fetched.set(token, [...(fetched.get(token) ?? []), r.token_id]);
      }
  };
  await Promise.all(Array.from({ length: Math.min(o.concurrency ?? 4, queue.length) }, worker));
  if (o.onFetched) for (const [token, ids] of fetched) o.onFetched(token, ids);
  return due.length;
}

/** Fetches one instance's metadata and stores it or the failure; true when metadata was stored. */
async function fetchOne(db: Queryable, rpc: Rpc, r: DueRow, o: MetadataFetchOptions): Promise<boolean> {
  const token = fromBytea(r.token_address);
  const id = BigInt(r.token_id);
  const uri = await readTokenUri(rpc, token, r.token_type, id);
  let result: MetadataResult;
  if (!uri.ok) result = uri;
  else
    result = await fetchTokenMetadata({
      tokenUri: uri.uri,
      tokenId: id,
      ...(o.gateways ? { gateways: o.gateways } : {}),
      ...(o.allowedHosts ? { allowedHosts: o.allowedHosts } : {}),
      ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
      ...(o.maxBytes ? { maxBytes: o.maxBytes } : {}),
    });
  const key = [toBytea(token), r.token_id];
  const tokenUri = uri.ok ? uri.uri.slice(0, 10_000) : null;
  if (result.ok) {
    await db.query(
      `update token_instances set metadata = $3::jsonb, token_uri = $4, fetched_at = now(), retry_at = null,
         fetch_attempts = 0, gave_up = false, error_reason = null, error_message = null
       where token_address = $1 and token_id = $2`,
      [...key, JSON.stringify(result.metadata).replaceAll("\\u0000", ""), tokenUri],
    );
    return true;
  }
  const state: RetryState = {
    attempts: r.fetch_attempts,
    retryAt: null,
    gaveUp: false,
    lastReason: null,
  };
  const next = recordFailure(state, result.reason, new Date(), o.policy);
  await db.query(
    `update token_instances set token_uri = $3, fetch_attempts = $4, retry_at = $5, gave_up = $6,
       error_reason = $7, error_message = $8
     where token_address = $1 and token_id = $2`,
    [...key, tokenUri, next.attempts, next.retryAt, next.gaveUp, result.reason, result.message],
  );
  return false;
}
