import type { Address } from "viem";
import { fromBytea, toBytea } from "../db/bytes.js";
import type { Queryable } from "../db/db.js";
import type { AddressDeps } from "../explorer/address/query.js";
import { blocksPage } from "../explorer/block/query.js";
import { renderBlocks } from "../explorer/block/service.js";
import { coinBalanceItem } from "../explorer/coin-balance/view.js";
import { averageBlockTimeMs, rangeAddressTransactions } from "../explorer/transaction/query.js";
import { renderTransactions } from "../explorer/transaction/service.js";
import { transactionAddresses } from "../explorer/transaction/view.js";
import type { Logger } from "../util/logger.js";
import type { LiveBus, LiveEvent } from "./bus.js";
import type { LiveHub } from "./hub.js";

export type LivePublisherOptions = {
  db: Queryable;
  bus: LiveBus;
  hub: LiveHub;
  /** Verified names and tags of the address objects inside blocks and transactions. */
  addressDeps?: AddressDeps;
  logger?: Logger;
  /** `new_block` goes out for at most this many newest blocks of a committed range (catch-up ranges are large). */
  maxBlocksPerRange?: number;
  /** At most this many transactions per address and range (the frontend keeps 75 on a page). */
  maxItemsPerAddress?: number;
};

export type LivePublisher = {
  stop(): void /** Resolves when no range is being published (tests, benchmarks). */;
  idle(): Promise<void>;
};

const ADDRESS = /^0x[0-9a-f]{40}$/;

/**
 * Turns bus events into socket events. A committed range is read from the database once, whatever the number of
 * subscribers, and only for the topics someone has joined (per-address queries only for watched addresses).
 * Ranges are published one at a time; ranges committed meanwhile are merged into the next round.
 */
export function startLivePublisher(o: LivePublisherOptions): LivePublisher {
  const maxBlocks = o.maxBlocksPerRange ?? 5;
  const maxItems = o.maxItemsPerAddress ?? 75;
  const { db, hub } = o;
  const deps = { db, ...(o.addressDeps ?? {}) };
  let queued: { from: number; to: number } | null = null;
  let running: Promise<void> | null = null;

  const onEvent = (ev: LiveEvent) => {
    if (ev.kind === "verification") {
      hub.broadcast(`addresses:${ev.address.toLowerCase()}`, "verification_result", ev.result);
      return;
    }
    queued = queued ? { from: Math.min(queued.from, ev.from), to: Math.max(queued.to, ev.to) } : ev;
    if (!running) running = drain();
  };

  async function drain(): Promise<void> {
    while (queued) {
      const r = queued;
      queued = null;
      await publishRange(r.from, r.to).catch((err: unknown) =>
        o.logger?.warn({ err, from: r.from, to: r.to }, "Publishing live updates failed"),
      );
    }
    running = null;
  }

  async function publishRange(from: number, to: number): Promise<void> {
    const miners = hub.subjects("blocks").filter((s) => ADDRESS.test(s));
    const jobs: Promise<void>[] = [];
    if (hub.has("blocks:new_block") || miners.length)
      jobs.push(publishBlocks(Math.max(from, to - maxBlocks + 1), to));
    if (hub.has("transactions:new_transaction")) jobs.push(publishTransactionCount(from, to));
    const watched = hub.subjects("addresses").filter((s) => ADDRESS.test(s));
    if (watched.length) jobs.push(publishAddresses(watched, from, to));
    const tokens = hub.subjects("tokens").filter((s) => ADDRESS.test(s));
    if (tokens.length) jobs.push(publishTokens(tokens, from, to));
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

  async function publishTransactionCount(from: number, to: number) {
    const [row] = await db.query<{ n: number }>(
      "select coalesce(sum(transaction_count), 0)::int8 as n from blocks where number between $1 and $2",
      [from, to],
    );
    if (row && row.n > 0)
      hub.broadcast("transactions:new_transaction", "transaction", { transaction: row.n });
  }

  async function publishAddresses(watched: string[], from: number, to: number) {
    const param = watched.map(toBytea);
    const [balances, txs, transfers] = await Promise.all([
      db.query<{
        address: Uint8Array;
        block_number: number;
        value: string;
        delta: string;
        transaction_hash: Uint8Array | null;
        block_timestamp: Date;
      }>(
        `select address, block_number, value, delta, transaction_hash, block_timestamp from coin_balance_changes
         where address = any($1::bytea[]) and block_number between $2 and $3 order by address, block_number`,
        [param, from, to],
      ),
      rangeAddressTransactions(db, watched as Address[], from, to, maxItems * watched.length),
      db.query<{ holder: Uint8Array; block_number: number }>(
        `select holder, max(block_number)::int8 as block_number from (
           select from_address as holder, block_number from token_transfers
             where from_address = any($1::bytea[]) and block_number between $2 and $3
           union all
           select to_address, block_number from token_transfers
             where to_address = any($1::bytea[]) and block_number between $2 and $3) x group by holder`,
        [param, from, to],
      ),
    ]);

    const last = new Map<string, (typeof balances)[number]>();
    for (const b of balances) {
      const topic = `addresses:${fromBytea(b.address)}`;
      hub.broadcast(topic, "coin_balance", { coin_balance: coinBalanceItem(b) });
      last.set(topic, b);
    }
    for (const [topic, b] of last) {
      hub.broadcast(topic, "balance", {
        balance: b.value,
        block_number: b.block_number,
        exchange_rate: null,
      });
      hub.broadcast(topic, "current_coin_balance", {
        coin_balance: b.value,
        block_number: b.block_number,
        exchange_rate: null,
      });
    }

    if (txs.length) {
      // The explorer's list items (`/api/v2/transactions`), as Blockscout's socket renders them.
      const views = await renderTransactions(deps, txs);
      const watchedSet = new Set(watched);
      const perAddress = new Map<string, unknown[]>();
      txs.forEach((r, i) => {
        for (const a of new Set(transactionAddresses([r]))) {
          if (!watchedSet.has(a)) continue;
          const list = perAddress.get(a) ?? [];
          if (list.length < maxItems) list.push(views[i]);
          perAddress.set(a, list);
        }
      });
      for (const [a, list] of perAddress)
        hub.broadcast(`addresses:${a}`, "transaction", { transactions: list });
    }

    for (const t of transfers)
      hub.broadcast(`addresses:${fromBytea(t.holder)}`, "token_balance", { block_number: t.block_number });
  }

  async function publishTokens(tokens: string[], from: number, to: number) {
    const rows = await db.query<{ token_address: Uint8Array; n: number }>(
      `select token_address, count(*)::int8 as n from token_transfers
       where token_address = any($1::bytea[]) and block_number between $2 and $3 group by token_address`,
      [tokens.map(toBytea), from, to],
    );
    for (const r of rows)
      hub.broadcast(`tokens:${fromBytea(r.token_address)}`, "token_transfer", { token_transfer: r.n });
  }

  const off = o.bus.on(onEvent);
  return {
    stop: off,
    async idle() {
      while (running) await running;
    },
  };
}
