import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
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

/** The saved state at `path` if it is a readable dump; a damaged file is moved aside (and said so). */
export function readSavedChain(path: string, logger: Logger): SavedChain | null {
  if (!existsSync(path)) return null;
  try {
    const state = JSON.parse(readFileSync(path, "utf8")) as { best_block_number?: string | number };
    const block = Number(state.best_block_number ?? 0);
    return { path, block: Number.isFinite(block) ? block : 0 };
  } catch (err) {
    const aside = `${path}.damaged-${Date.now()}`;
    renameSync(path, aside);
    logger.warn({ err, moved_to: aside }, "The saved local chain could not be read; starting a new chain");
    return null;
  }
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
