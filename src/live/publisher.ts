import type { Queryable } from "../db/db.js";
import type { EventBus } from "../events/bus.js";
import type { ChainEvent } from "../events/facts.js";
import { blocksPage } from "../explorer/block/query.js";
import { renderBlocks } from "../explorer/block/service.js";
import type { ExplorerDeps } from "../explorer/deps.js";
import { indexedRange } from "../explorer/stats/query.js";
import { averageBlockTimeMs } from "../explorer/transaction/query.js";
import type { Logger } from "../util/logger.js";
import { publishAddressEvents } from "./address-events.js";
import type { LiveHub } from "./hub.js";
import {
  publishTokenChange,
  publishTokenTransferCounts,
  RecentlyFetched,
  sendRecentMetadata,
} from "./token-events.js";

export type LivePublisherOptions = {
  db: Queryable;
  bus: EventBus;
  hub: LiveHub;
  /** Verified names, tags and media gateways of the explorer objects inside the events. */
  addressDeps?: Omit<ExplorerDeps, "db">;
  logger?: Logger;
  /** `new_block` goes out for at most this many newest blocks of a committed range (catch-up ranges are large). */
  maxBlocksPerRange?: number;
  /** At most this many transactions (and token transfers) per address and range (the frontend keeps 75 on a page). */
  maxItemsPerAddress?: number;
};

export type LivePublisher = {
  stop(): void;
  /** Resolves when nothing is being published (tests, benchmarks). */
  idle(): Promise<void>;
};

const ADDRESS = /^0x[0-9a-f]{40}$/;

/**
 * Blockscout's indexed ratio as its `index_status` carries it: indexed blocks over the blocks from the start block
 * to the chain head, two decimals rounded down, 1 from 0.99 on; `finished` once it is 1.
 */
export function indexStatus(
  start: number,
  last: number,
  head: number,
  indexed = last - start + 1,
): { ratio: string; finished: boolean } {
  const total = head - start + 1;
  const ratio = total <= 0 ? 1 : Math.max(0, indexed) / total;
  // History catching up beside the head (fewer indexed than the range holds) is never finished.
  const finished = ratio >= 0.99 && indexed >= last - start + 1;
  return { ratio: finished ? "1.00" : (Math.floor(ratio * 100) / 100).toFixed(2), finished };
}

/**
 * Turns bus events into socket events. A committed range is read from the database once, whatever the number of
 * subscribers, and only for the topics someone has joined (per-address queries only for watched addresses).
 * Ranges are published one at a time; ranges committed meanwhile are merged into the next round.
 */
export function startLivePublisher(o: LivePublisherOptions): LivePublisher {
  const maxBlocks = o.maxBlocksPerRange ?? 5;
  const maxItems = o.maxItemsPerAddress ?? 75;
  const { db, hub } = o;
  const deps: ExplorerDeps = { db, ...(o.addressDeps ?? {}) };
  let queued: { from: number; to: number; head?: number } | null = null;
  let running: Promise<void> | null = null;
  const side = new Set<Promise<void>>();
  const recent = new RecentlyFetched();

  const warn = (err: unknown, what: Record<string, unknown>) =>
    o.logger?.warn({ err, ...what }, "Publishing live updates failed");
  const track = (p: Promise<void>) => {
    const q = p.finally(() => side.delete(q));
    side.add(q);
  };

  hub.onJoined("token_instances", (topic, client) =>
    track(sendRecentMetadata(db, recent, topic, client).catch((err: unknown) => warn(err, { topic }))),
  );

  const onEvent = (ev: ChainEvent) => {
    switch (ev.kind) {
      case "verification":
        hub.broadcast(`addresses:${ev.address.toLowerCase()}`, "verification_result", ev.result);
        return;
      case "total_supply":
      case "token_metadata": {
        track(
          publishTokenChange(db, hub, ev, recent).catch((err: unknown) => warn(err, { token: ev.token })),
        );
        return;
      }
      case "blocks": {
        const head = Math.max(queued?.head ?? -1, ev.head ?? -1);
        queued = {
          from: Math.min(queued?.from ?? ev.from, ev.from),
          to: Math.max(queued?.to ?? ev.to, ev.to),
          ...(head >= 0 ? { head } : {}),
        };
        if (!running) running = drain();
      }
    }
  };

  async function drain(): Promise<void> {
    while (queued) {
      const r = queued;
      queued = null;
      await publishRange(r.from, r.to, r.head).catch((err: unknown) => warn(err, { from: r.from, to: r.to }));
    }
    running = null;
  }

  async function publishRange(from: number, to: number, head: number | undefined): Promise<void> {
    const miners = hub.subjects("blocks").filter((s) => ADDRESS.test(s));
    const jobs: Promise<void>[] = [];
    if (hub.has("blocks:new_block") || miners.length)
      jobs.push(publishBlocks(Math.max(from, to - maxBlocks + 1), to));
    if (hub.has("transactions:new_transaction")) jobs.push(publishTransactionCount(from, to));
    if (
      head !== undefined &&
      (hub.has("blocks:indexing") || hub.has("blocks:indexing_internal_transactions"))
    )
      jobs.push(publishIndexStatus(head));
    const watched = hub.subjects("addresses").filter((s) => ADDRESS.test(s));
    if (watched.length) jobs.push(publishAddressEvents(deps, hub, watched, from, to, maxItems));
    const tokens = hub.subjects("tokens").filter((s) => ADDRESS.test(s));
    if (tokens.length) jobs.push(publishTokenTransferCounts(db, hub, tokens, from, to));
    await Promise.all(jobs);
  }

  /**
   * `new_block` with the block as Blockscout's socket renders it: the list form of the explorer's Block (what
   * `/api/v2/blocks` and `/main-page/blocks` return for it), oldest first.
   */
  async function publishBlocks(from: number, to: number) {
    const rows = (await blocksPage(db, to + 1, to - from + 1)).reverse();
    if (!rows.length) return;
    const [blocks, average] = await Promise.all([renderBlocks(deps, rows), averageBlockTimeMs(db)]);
    for (const block of blocks) {
      // Blockscout's average_block_time: milliseconds as a string.
      const payload = { average_block_time: String(average), block };
      hub.broadcast("blocks:new_block", "new_block", payload);
      hub.broadcast(`blocks:${block.miner.hash.toLowerCase()}`, "new_block", payload);
    }
  }

  /**
   * `transactions:new_transaction` `{transaction: n}`: the validated transactions of the range, only when there
   * are some. Lookout indexes no mempool, so `transactions:new_pending_transaction` never fires, as Blockscout's
   * does not while nothing is pending.
   */
  async function publishTransactionCount(from: number, to: number) {
    const [row] = await db.query<{ n: number }>(
      "select coalesce(sum(transaction_count), 0)::int8 as n from blocks where number between $1 and $2",
      [from, to],
    );
    if (row && row.n > 0)
      hub.broadcast("transactions:new_transaction", "transaction", { transaction: row.n });
  }

  /**
   * `index_status` on `blocks:indexing` (the header's indexing banner) and, as Lookout stores call frames with
   * their blocks, the same on `blocks:indexing_internal_transactions`.
   */
  async function publishIndexStatus(head: number) {
    const range = await indexedRange(db);
    if (!range || range.last === null) return;
    const status = indexStatus(range.start, range.last, head, range.indexed);
    hub.broadcast("blocks:indexing", "index_status", status);
    hub.broadcast("blocks:indexing_internal_transactions", "index_status", status);
  }

  const off = o.bus.on(onEvent);
  return {
    stop: off,
    async idle() {
      while (running || side.size) await Promise.all([running, ...side]);
    },
  };
}
