import { randomBytes } from "node:crypto";
import type { Address, Hex } from "viem";
import { fromBytea, fromByteaOrNull, toBytea } from "../db/bytes.js";
import { command, type Queryable } from "../db/db.js";

/**
 * Requests to read a proxy's implementation again (Etherscan's verifyproxycontract), kept in
 * proxy_refresh_requests: the API writes one, the indexer's proxies stage answers it at its next batch.
 */

/** What a request came to: not looked at yet, or the implementation found (null: none). */
export type ProxyRefresh =
  | { state: "pending"; address: Address }
  | { state: "answered"; address: Address; implementation: Address | null };

/** A client polls within minutes; older answered requests of the same address go with each new request. */
const KEEP_ANSWERED = "1 hour";

/**
 * Records a request for `address` and returns its GUID: the address and the time (as Blockscout's UIDs are made),
 * plus a random part so two requests in the same millisecond differ. While a request of the address is open (not
 * answered yet), a repeat gets that one's GUID: one open request per address (migration 161's unique index), so a
 * client repeating it cannot queue work ahead of everyone else's.
 */
export async function requestProxyRefresh(db: Queryable, address: Address): Promise<string> {
  for (let i = 0; i < 3; i++) {
    const guid = `${address.slice(2).toLowerCase()}${Date.now().toString(16)}${randomBytes(4).toString("hex")}`;
    const [inserted] = await db.query<{ guid: string }>(
      `with dropped as (delete from proxy_refresh_requests where address = $2
         and answered_block is not null and requested_at < now() - interval '${KEEP_ANSWERED}')
       insert into proxy_refresh_requests (guid, address) values ($1, $2)
       on conflict (address) where answered_block is null do nothing
       returning guid`,
      [guid, toBytea(address)],
    );
    if (inserted) return inserted.guid;
    const [open] = await db.query<{ guid: string }>(
      "select guid from proxy_refresh_requests where address = $1 and answered_block is null",
      [toBytea(address)],
    );
    // The open request may have been answered between the two statements: then insert again.
    if (open) return open.guid;
  }
  throw new Error("proxy_refresh_requests: could not record the request (its open request kept changing)");
}

export async function proxyRefresh(db: Queryable, guid: string): Promise<ProxyRefresh | null> {
  const [r] = await db.query<{
    address: Uint8Array;
    answered_block: number | null;
    implementation: Uint8Array | null;
  }>("select address, answered_block, implementation from proxy_refresh_requests where guid = $1", [guid]);
  if (!r) return null;
  const address = fromBytea(r.address) as Address;
  if (r.answered_block === null) return { state: "pending", address };
  return { state: "answered", address, implementation: fromByteaOrNull(r.implementation) as Address | null };
}

/** The requests not answered yet (the proxies stage, inside its batch transaction), oldest first, at most `limit`. */
export async function openProxyRefreshes(
  tx: Queryable,
  limit: number,
): Promise<Array<{ guid: string; address: Address }>> {
  const rows = await tx.query<{ guid: string; address: Uint8Array }>(
    `select guid, address from proxy_refresh_requests where answered_block is null
     order by requested_at limit $1`,
    [limit],
  );
  return rows.map((r) => ({ guid: r.guid, address: fromBytea(r.address) as Address }));
}

/** Writes the answers of requests (inside the batch transaction that read them). */
export async function answerProxyRefreshes(
  tx: Queryable,
  answers: ReadonlyArray<{ guid: string; block: number; implementation: Hex | null }>,
): Promise<void> {
  if (!answers.length) return;
  await command(
    tx,
    `update proxy_refresh_requests r set answered_block = a.block, implementation = a.implementation
     from unnest($1::text[], $2::int8[], $3::bytea[]) as a(guid, block, implementation)
     where r.guid = a.guid`,
    [
      answers.map((a) => a.guid),
      answers.map((a) => a.block),
      answers.map((a) => (a.implementation ? toBytea(a.implementation) : null)),
    ],
  );
}
