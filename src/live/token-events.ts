import { fromBytea, toBytea } from "../db/bytes.js";
import type { Queryable } from "../db/db.js";
import type { TokenChange } from "../events/facts.js";
import type { LiveClient, LiveHub } from "./hub.js";
import { broadcastFrame } from "./phoenix.js";

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
 * The instances whose metadata was fetched while nobody watched their token, kept for a late subscriber: the
 * frontend joins `token_instances:{hash}` only after its refetch request was answered, and the worker often fetches
 * before that. Ids only (the documents are read when someone joins), for `ttlMs` (the frontend gives up after two
 * minutes), at most `max` of them (the oldest go first).
 */
export class RecentlyFetched {
  private readonly byTopic = new Map<string, Map<string, number>>();
  private size = 0;

  constructor(
    private readonly ttlMs = 120_000,
    private readonly max = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  note(topic: string, ids: readonly string[]): void {
    let ofTopic = this.byTopic.get(topic);
    if (!ofTopic) {
      ofTopic = new Map();
      this.byTopic.set(topic, ofTopic);
    }
    const until = this.now() + this.ttlMs;
    for (const id of ids) {
      if (!ofTopic.delete(id)) this.size++;
      ofTopic.set(id, until);
    }
    this.evict();
  }

  /** The ids of `topic` still kept (expired ones are dropped). */
  take(topic: string): string[] {
    const ofTopic = this.byTopic.get(topic);
    if (!ofTopic) return [];
    const now = this.now();
    const out: string[] = [];
    for (const [id, until] of ofTopic) {
      if (until > now) out.push(id);
      else {
        ofTopic.delete(id);
        this.size--;
      }
    }
    if (!ofTopic.size) this.byTopic.delete(topic);
    return out;
  }

  private evict(): void {
    // Topics and ids iterate in insertion order: the first are the oldest.
    for (const [topic, ofTopic] of this.byTopic) {
      if (this.size <= this.max) return;
      for (const id of ofTopic.keys()) {
        if (this.size <= this.max) break;
        ofTopic.delete(id);
        this.size--;
      }
      if (!ofTopic.size) this.byTopic.delete(topic);
    }
  }
}

/**
 * What the token workers changed, for whoever watches it: `tokens:{hash}` `total_supply` (a decimal string, as
 * Blockscout sends it) and `token_instances:{hash}` `fetched_token_instance_metadata` `{token_id, fetched_metadata}`
 * (the documents are read here, so the event crossing processes stays small). Fetched ids are noted in `recent`
 * for `sendRecentMetadata`.
 */
export async function publishTokenChange(
  db: Queryable,
  hub: LiveHub,
  change: TokenChange,
  recent?: RecentlyFetched,
): Promise<void> {
  const token = change.token.toLowerCase();
  if (change.kind === "total_supply") {
    hub.broadcast(`tokens:${token}`, "total_supply", { total_supply: change.totalSupply });
    return;
  }
  const topic = `token_instances:${token}`;
  if (!change.ids.length) return;
  // Noted even when someone watches: the page that asked may join after another page of the same token did.
  recent?.note(topic, change.ids);
  if (!hub.has(topic)) return;
  for (const r of await fetchedMetadata(db, token, change.ids))
    hub.broadcast(topic, "fetched_token_instance_metadata", {
      token_id: r.token_id,
      fetched_metadata: r.metadata,
    });
}

/**
 * On a join of `token_instances:{hash}`: the metadata fetched for it in the last minutes, to that client only,
 * `delayMs` after the join was acknowledged. The frontend registers its event handler in a React effect after it
 * called join, and the acknowledgement can reach it first on a fast link; an event sent with the acknowledgement
 * would find no handler. Its own timeout is two minutes, so a second's wait costs nothing.
 */
export async function sendRecentMetadata(
  db: Queryable,
  recent: RecentlyFetched,
  topic: string,
  client: LiveClient,
  delayMs = 1000,
): Promise<void> {
  const ids = recent.take(topic);
  if (!ids.length) return;
  await new Promise<void>((ok) => setTimeout(ok, delayMs).unref());
  const token = topic.slice(topic.indexOf(":") + 1);
  for (const r of await fetchedMetadata(db, token, ids))
    client.send(
      broadcastFrame(topic, "fetched_token_instance_metadata", {
        token_id: r.token_id,
        fetched_metadata: r.metadata,
      }),
    );
}

function fetchedMetadata(db: Queryable, token: string, ids: readonly string[]) {
  return db.query<{ token_id: string; metadata: unknown }>(
    `select token_id::text as token_id, metadata from token_instances
     where token_address = $1 and token_id = any($2::numeric[]) and metadata is not null`,
    [toBytea(token), ids],
  );
}
