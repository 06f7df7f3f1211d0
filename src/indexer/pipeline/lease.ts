import pg from "pg";
import { sleep } from "../../chain/rpc.js";

/**
 * The right to index: one active indexer per database (one chain per database), any number on standby.
 *
 * On PostgreSQL it is a session advisory lock held on a connection of its own: PostgreSQL releases it the moment
 * that session ends, which a `kill -9` of the holder (the socket closes) or a dead network (TCP keepalive) causes,
 * so a standby polling `pg_try_advisory_lock` takes over within one poll. A holder that loses its connection
 * learns it through `lost()` and must stop writing; the checkpoint's compare-and-set (`lockCheckpoint`) fences
 * any batch already in flight. It may then compete for the lease again like any standby (a database blip must
 * not end the process). On PGlite (one process owns the files) the lease is trivially held.
 */
export type IndexerLease = {
  readonly kind: "advisory-lock" | "single-process";
  held(): boolean;
  /** Tries once; true when this process now holds the lease. */
  tryAcquire(): Promise<boolean>;
  /** Waits until the lease is held (polling), or the signal aborts (then resolves false). */
  acquire(signal: AbortSignal, onWait?: () => void): Promise<boolean>;
  /**
   * Resolves when the lease held now is lost (the lock connection failed); at once when none is held. Each hold
   * has its own: after a loss the lease can be taken again (`acquire`), and `lost()` then watches the new hold.
   */
  lost(): Promise<void>;
  /** How many holds were lost, and when the last one was. */
  losses(): { count: number; lastAt: Date | null };
  release(): Promise<void>;
};

// Two-key form: a different lock space from the migration lock (single key 7163).
const LOCK_KEY = [7163, 1] as const;

export function singleProcessLease(): IndexerLease {
  let held = false;
  return {
    kind: "single-process",
    held: () => held,
    async tryAcquire() {
      held = true;
      return true;
    },
    async acquire() {
      held = true;
      return true;
    },
    lost: () => (held ? new Promise(() => {}) : Promise.resolve()),
    losses: () => ({ count: 0, lastAt: null }),
    async release() {
      held = false;
    },
  };
}

export function advisoryLockLease(databaseUrl: string, pollMs: number): IndexerLease {
  let client: pg.Client | null = null;
  let held = false;
  let onLost!: () => void;
  let lost!: Promise<void>;
  const nextHold = () => {
    lost = new Promise<void>((r) => {
      onLost = r;
    });
  };
  nextHold();
  const losses = { count: 0, lastAt: null as Date | null };
  const connect = async () => {
    if (client) return client;
    const c = new pg.Client({
      connectionString: databaseUrl,
      keepAlive: true,
      keepAliveInitialDelayMillis: 5000,
    });
    const dropped = () => {
      // Only the current connection holds the lock: an old one ending (after release) changes nothing.
      if (client !== c) return;
      client = null;
      if (held) {
        held = false;
        losses.count++;
        losses.lastAt = new Date();
        onLost();
        nextHold();
      }
    };
    c.on("error", dropped);
    c.on("end", dropped);
    await c.connect();
    client = c;
    return c;
  };
  const tryAcquire = async () => {
    if (held) return true;
    const c = await connect();
    const r = await c.query<{ ok: boolean }>("select pg_try_advisory_lock($1, $2) as ok", [...LOCK_KEY]);
    held = r.rows[0]?.ok === true;
    return held;
  };
  return {
    kind: "advisory-lock",
    held: () => held,
    tryAcquire,
    async acquire(signal, onWait) {
      let waited = false;
      while (!signal.aborted) {
        const ok = await tryAcquire().catch(() => false);
        if (ok) return true;
        if (!waited) onWait?.();
        waited = true;
        await sleep(pollMs, signal);
      }
      return false;
    },
    lost: () => (held ? lost : Promise.resolve()),
    losses: () => ({ ...losses }),
    async release() {
      const c = client;
      client = null;
      held = false;
      // Closing the session releases the lock.
      await c?.end().catch(() => {});
    },
  };
}
