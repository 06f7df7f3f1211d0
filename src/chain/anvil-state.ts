import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { gunzipSync } from "node:zlib";
import type { Logger } from "../util/logger.js";

/**
 * A local chain kept across restarts: Lookout asks anvil for its state (`anvil_dumpState`) after every new block,
 * at most once per interval, and writes it atomically (a temporary file renamed over the old one). anvil's own
 * `--state` dumps only on an orderly exit, and a `kill -9` of Lookout (which takes anvil with it) would lose
 * everything; its `--state-interval` writes the file in place, so a kill during a write would leave half a file.
 * At most the last interval's blocks are lost; the indexer rewinds past them as it would for a reorganisation.
 */

export type SavedChain = { path: string; block: number };

type DumpBlock = { header?: { number?: string; timestamp?: string } };
type Dump = { best_block_number?: string | number; blocks?: DumpBlock[] };

/**
 * anvil (1.x) adds a fresh genesis block of its own to every dump taken after `--load-state`, in an order that
 * varies from dump to dump, and on the next load one of the two wins: from the second restart on the chain may get
 * a new genesis hash (the index is then taken for another chain's) and lose the link from block 1 to its parent.
 * Of the blocks of one number the loaded chain's own is the oldest (the extra one is stamped at the load). Returns
 * the dump read, and its text without the extra blocks (null when it has none).
 */
export function withoutExtraBlocks(text: string): { dump: Dump; repaired: string | null } {
  let unsafe = false;
  const dump = JSON.parse(text, (_k, v: unknown) => {
    // A number JSON.parse cannot hold exactly would be changed by a rewrite: leave such a file as it is.
    if (typeof v === "number" && !Number.isSafeInteger(v)) unsafe = true;
    return v;
  }) as Dump;
  if (unsafe || !Array.isArray(dump.blocks)) return { dump, repaired: null };
  const oldest = new Map<string, DumpBlock>();
  const time = (b: DumpBlock) => BigInt(b.header?.timestamp ?? "0x0");
  for (const b of dump.blocks) {
    const n = b.header?.number;
    if (n === undefined) continue;
    const kept = oldest.get(n);
    if (!kept || time(b) < time(kept)) oldest.set(n, b);
  }
  const blocks = dump.blocks.filter(
    (b) => b.header?.number === undefined || oldest.get(b.header.number) === b,
  );
  if (blocks.length === dump.blocks.length) return { dump, repaired: null };
  return { dump, repaired: JSON.stringify({ ...dump, blocks }) };
}

/**
 * The saved state at `path` if it is a readable dump (repaired of anvil's extra genesis, see
 * `withoutExtraBlocks`); a damaged file is moved aside (and said so).
 */
export function readSavedChain(path: string, logger: Logger): SavedChain | null {
  if (!existsSync(path)) return null;
  let read: ReturnType<typeof withoutExtraBlocks>;
  try {
    read = withoutExtraBlocks(readFileSync(path, "utf8"));
  } catch (err) {
    const aside = `${path}.damaged-${Date.now()}`;
    renameSync(path, aside);
    logger.warn({ err, moved_to: aside }, "The saved local chain could not be read; starting a new chain");
    return null;
  }
  if (read.repaired !== null) {
    try {
      writeFileSync(`${path}.tmp`, read.repaired);
      renameSync(`${path}.tmp`, path);
    } catch (err) {
      logger.warn({ err }, "Could not remove anvil's extra genesis block from the saved local chain");
    }
  }
  const block = Number(read.dump.best_block_number ?? 0);
  return { path, block: Number.isFinite(block) ? block : 0 };
}

export function forgetSavedChain(path: string): void {
  rmSync(path, { force: true });
}

type RpcCall = <T>(method: string, params: unknown[]) => Promise<T>;

export type ChainSaver = {
  /** Saves now (whether or not a block came), e.g. before anvil stops. */
  saveNow(): Promise<void>;
  /** Stops the periodic saves and saves a last time. */
  stop(): Promise<void>;
};

/** Saves anvil's state to `path` whenever the head moved, at most every `intervalMs`. */
export function saveChainPeriodically(o: {
  url: string;
  path: string;
  intervalMs: number;
  logger: Logger;
}): ChainSaver {
  mkdirSync(dirname(o.path), { recursive: true });
  const call: RpcCall = async (method, params) => {
    const r = await fetch(o.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      // A hung node must not hold up the shutdown's last save for ever.
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await r.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as never;
  };
  let savedHead: string | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let inflight: Promise<void> = Promise.resolve();
  let warned = false;

  const save = async (force: boolean) => {
    const head = await call<{ hash: string } | null>("eth_getBlockByNumber", ["latest", false]);
    if (!force && head?.hash === savedHead) return 0;
    const t0 = performance.now();
    // `true`: with the states of recent blocks, so the indexer can still trace and read balances at blocks it
    // had not indexed before the restart.
    const hex = await call<string>("anvil_dumpState", [true]);
    const tmp = `${o.path}.tmp`;
    await writeFile(tmp, gunzipSync(Buffer.from(hex.slice(2), "hex")));
    await rename(tmp, o.path);
    savedHead = head?.hash ?? null;
    return performance.now() - t0;
  };
  // One save at a time, in order: a final save waits for a periodic one in flight.
  const run = (force: boolean): Promise<number> => {
    const p = inflight
      .then(() => save(force))
      .catch((err: unknown) => {
        if (!warned && !stopped) o.logger.warn({ err }, "Could not save the local chain's state");
        warned = true;
        return 0;
      });
    inflight = p.then(() => {});
    return p;
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(async () => {
      const ms = await run(false);
      // A large state: keep the saves to a small share of the time.
      schedule(Math.max(o.intervalMs, ms * 10));
    }, delay);
    timer.unref();
  };
  schedule(o.intervalMs);
  return {
    saveNow: async () => {
      await run(true);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await run(true);
    },
  };
}
