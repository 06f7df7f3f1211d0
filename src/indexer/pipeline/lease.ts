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

/**
 * The connection that holds advisory locks: one per lease (the default), or one shared by the leases of every
 * chain of a deployment, so many chains cost one lock connection. A failure of it loses every lock it held.
 */
export type LockSession = {
  /** The connection, opened on first use and again after it failed or was closed. */
  connect(): Promise<pg.Client>;
  /** One statement on `c`, after the statements of the other leases on it (a client runs one at a time). */
  query<T extends pg.QueryResultRow>(c: pg.Client, sql: string, params: unknown[]): Promise<T[]>;
  /** Whether `c` is still the session's connection (the locks it took are still held). */
  current(c: pg.Client): boolean;
  /** Calls `fn` when the connection fails or ends by itself (not on close); returns the unsubscribe. */
  onDropped(fn: () => void): () => void;
  /** Ends the connection: PostgreSQL releases every lock it held. */
  close(): Promise<void>;
};

export function lockSession(databaseUrl: string): LockSession {
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  const watchers = new Set<() => void>();
  let queue: Promise<unknown> = Promise.resolve();
  const open = async () => {
    const c = new pg.Client({
      connectionString: databaseUrl,
      keepAlive: true,
      keepAliveInitialDelayMillis: 5000,
    });
    const dropped = () => {
      // Only the current connection holds locks: an old one ending (after close) changes nothing.
      if (client !== c) return;
      client = null;
      for (const w of [...watchers]) w();
    };
    c.on("error", dropped);
    c.on("end", dropped);
    await c.connect();
    client = c;
    return c;
  };
  return {
    connect() {
      if (client) return Promise.resolve(client);
      connecting ??= open().finally(() => {
        connecting = null;
      });
      return connecting;
    },
    query<T extends pg.QueryResultRow>(c: pg.Client, sql: string, params: unknown[]) {
      const run = queue.then(async () => (await c.query<T>(sql, params)).rows);
      queue = run.catch(() => {});
      return run;
    },
    current: (c) => client === c,
    onDropped(fn) {
      watchers.add(fn);
      return () => watchers.delete(fn);
    },
    async close() {
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

/**
 * `key`: the lock of one chain's index; the first chain's is LOCK_KEY, a further chain of the deployment passes
 * its own (app/roles/chains.ts), so the chains' indexers never wait on each other. `session`: a lock connection
 * shared with other leases (released by unlocking, the connection stays); without it the lease has its own.
 */
export function advisoryLockLease(
  databaseUrl: string,
  pollMs: number,
  key: readonly [number, number] = LOCK_KEY,
  session?: LockSession,
): IndexerLease {
  const locks = session ?? lockSession(databaseUrl);
  let holding: pg.Client | null = null;
  let unwatch = () => {};
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
  const dropped = () => {
    if (!held) return;
    held = false;
    holding = null;
    unwatch();
    losses.count++;
    losses.lastAt = new Date();
    onLost();
    nextHold();
  };
  const tryAcquire = async () => {
    if (held) return true;
    const c = await locks.connect();
    const rows = await locks.query<{ ok: boolean }>(c, "select pg_try_advisory_lock($1, $2) as ok", [...key]);
    if (rows[0]?.ok !== true) return false;
    held = true;
    holding = c;
    unwatch = locks.onDropped(dropped);
    // The connection failed while the lock was being taken: that hold is already lost.
    if (!locks.current(c)) dropped();
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
      const c = holding;
      const was = held;
      held = false;
      holding = null;
      unwatch();
      if (!session) {
        // Closing the session releases the lock.
        await locks.close();
        return;
      }
      if (was && c && locks.current(c))
        await locks.query(c, "select pg_advisory_unlock($1, $2)", [...key]).catch(() => {});
    },
  };
}
