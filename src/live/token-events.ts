import { fromBytea, toBytea } from "../db/bytes.js";
import type { Queryable } from "../db/db.js";
import type { TokenChange } from "../events/facts.js";
import type { LiveHub } from "./hub.js";

/** `tokens:{hash}` `token_transfer`: how many transfers of each watched token the range holds (Blockscout's count). */
export async function publishTokenTransferCounts(
  db: Queryable,
  hub: LiveHub,
  tokens: readonly string[],
  from: number,
  to: number,
): Promise<void> {
  const rows = await db.query<{ token_address: Uint8Array; n: number }>(
    `select token_address, count(*)::int8 as n from token_transfers
     where token_address = any($1::bytea[]) and block_number between $2 and $3 group by token_address`,
    [tokens.map(toBytea), from, to],
  );
  for (const r of rows)
    hub.broadcast(`tokens:${fromBytea(r.token_address)}`, "token_transfer", { token_transfer: r.n });
}

/**
 * What the token workers changed, for whoever watches it: `tokens:{hash}` `total_supply` (a decimal string, as
 * Blockscout sends it) and `token_instances:{hash}` `fetched_token_instance_metadata` `{token_id, fetched_metadata}`
 * (the documents are read here, so the event crossing processes stays small).
 */
export async function publishTokenChange(db: Queryable, hub: LiveHub, change: TokenChange): Promise<void> {
  const token = change.token.toLowerCase();
  if (change.kind === "total_supply") {
    hub.broadcast(`tokens:${token}`, "total_supply", { total_supply: change.totalSupply });
    return;
  }
  const topic = `token_instances:${token}`;
  if (!hub.has(topic) || !change.ids.length) return;
  const rows = await db.query<{ token_id: string; metadata: unknown }>(
    `select token_id::text as token_id, metadata from token_instances
     where token_address = $1 and token_id = any($2::numeric[]) and metadata is not null`,
    [toBytea(token), change.ids],
  );
  for (const r of rows)
    hub.broadcast(topic, "fetched_token_instance_metadata", {
      token_id: r.token_id,
      fetched_metadata: r.metadata,
    });
}
