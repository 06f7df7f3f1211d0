import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFromStdin } from "pg-copy-streams";
import { withBinaryByteaArrays } from "./binary-array.js";
import { copyFrameParts, copyStatement } from "./copy-writer.js";
import type { Db, Queryable, QueryOptions } from "./db.js";
import { connectionLost } from "./failures.js";
import { PipelinedWriter } from "./pg-writer.js";
import { searchPathStatement } from "./search-path.js";

// node-postgres parses int8 as string and numeric[] as floats (losing precision); fix both once for our pools (the
// writer thread's pool, pg-writer-source.ts, holds the same parsers in its own source).
const INT8 = 20;
const INT8_ARRAY = 1016;
const NUMERIC_ARRAY = 1231;
const typeParsers = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8) return (v: string) => Number(v);
    if (oid === INT8_ARRAY)
      return (v: string) => (pg.types.getTypeParser(1007 as never) as (s: string) => number[])(v);
    if (oid === NUMERIC_ARRAY)
      return (v: string) => (pg.types.getTypeParser(1009 as never) as (s: string) => string[])(v);
    return pg.types.getTypeParser(oid, format ?? "text");
  },
} as pg.CustomTypesConfig;

// Prepared statement names by text: node-postgres prepares a named statement on a connection the first time it
// runs there and reuses it after. The name is derived from the text so the same text always gets the same name.
const statementNames = new Map<string, string>();
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `lookout_${createHash("sha256").update(sql).digest("hex").slice(0, 24)}`;
    statementNames.set(sql, name);
  }
  return name;
}

/** COPY FROM STDIN on one connection (pg-copy-streams: the CopyData messages node-postgres itself does not send). */
async function copyIn(client: pg.PoolClient, table: string, columns: readonly string[], tuples: Uint8Array) {
  const stream = client.query(copyFromStdin(copyStatement(table, columns)));
  await pipeline(Readable.from(copyFrameParts(tuples)), stream);
}

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
      const values = withBinaryByteaArrays(params);
      const r = options?.prepare
        ? await client.query({ name: statementName(sql), text: sql, ...(values ? { values } : {}) })
        : await client.query(sql, values);
      return r.rows as T[];
    },
    async exec(sql: string) {
      await client.query(sql);
    },
    async copyFrom(table, columns, tuples) {
      if (!(client instanceof pg.Pool)) return copyIn(client, table, columns, tuples);
      const c = await client.connect();
      try {
        await copyIn(c, table, columns, tuples);
      } finally {
        c.release();
      }
    },
  };
}

export type PostgresPoolOptions = {
  /** Connections in the pool. */
  max?: number;
  /** statement_timeout of every connection, ms (0 or unset: none). */
  statementTimeoutMs?: number;
};

/** The search path a pooled connection was last given (undefined: the server's default). */
const SEARCH_PATH = Symbol("lookout.searchPath");
type PathClient = pg.PoolClient & { [SEARCH_PATH]?: string | null };

/**
 * The pool's connection string and startup options: the URL's own `options` (which pg would otherwise let replace
 * the config's), then JIT off.
 */
function withJitOff(url: string): { connectionString: string; options: string } {
  const off = "-c jit=off";
  try {
    const u = new URL(url);
    const own = u.searchParams.get("options");
    if (own === null) return { connectionString: url, options: off };
    u.searchParams.delete("options");
    return { connectionString: u.toString(), options: `${own} ${off}` };
  } catch {
    // Not a URL (a keyword string): pg reads it as it is.
    return { connectionString: url, options: off };
  }
}

export async function createPostgresDb(url: string, options: PostgresPoolOptions = {}): Promise<Db> {
  const config = {
    // No JIT compilation: every statement here is index-served and short, and PostgreSQL starts compiling on the
    // planner's estimate (above 100,000), which for a batch's per-address probes over a large table is far above
    // their work (a 1 ms update compiled for 9 ms).
    ...withJitOff(url),
    max: options.max ?? 10,
    // A peer that vanished (kill -9 of a process, a dropped network) must not hold our connections forever.
    keepAlive: true,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  };
  const pool = new pg.Pool({ ...config, types: typeParsers });
  // The writer thread's own connections (a few: one per indexer writing at once in this process).
  const writer = new PipelinedWriter({ ...config, max: 4 });
  // Idle clients can lose their server; without a handler the pool's 'error' event would crash the process.
  pool.on("error", () => {});
  // Until a chain handle exists (one chain: every deployment but a multichain one), statements go straight to the
  // pool as they always did; after, every checkout first gives its connection the handle's search path (a
  // statement only when it differs: the chains share the pool's connections).
  let scoped = false;

  /** A connection of the pool on `schema`'s search path, for `fn`; released (or dropped when broken) after. */
  const session = async <T>(schema: string | null, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = (await pool.connect()) as PathClient;
    // pg-pool drops its own 'error' listener while a client is checked out: a session the server ends between
    // two statements (pg_terminate_backend, failover, idle_in_transaction_session_timeout) would emit an
    // unhandled 'error' and end the process. Here it only fails this use; the next statement rejects.
    let lost: Error | undefined;
    const onError = (err: Error) => {
      lost = err;
    };
    client.on("error", onError);
    try {
      if (scoped && (client[SEARCH_PATH] ?? null) !== schema) {
        await client.query(searchPathStatement(schema));
        client[SEARCH_PATH] = schema;
      }
      return await fn(client);
    } catch (e) {
      throw lost ? connectionLost(lost) : e;
    } finally {
      client.removeListener("error", onError);
      // A broken connection goes out of the pool instead of back into it.
      client.release(lost ?? undefined);
    }
  };

  const handle = (schema: string | null): Db => {
    const direct = wrap(pool);
    const viaSession: Queryable = {
      query: (sql, params, opts) => session(schema, (c) => wrap(c).query(sql, params, opts)),
      exec: (sql) => session(schema, (c) => wrap(c).exec(sql)),
    };
    return {
      kind: "postgres",
      query: (sql, params, opts) =>
        scoped ? viaSession.query(sql, params, opts) : direct.query(sql, params, opts),
      exec: (sql) => (scoped ? viaSession.exec(sql) : direct.exec(sql)),
      copyFrom: (table, columns, tuples) =>
        scoped
          ? session(schema, (c) => copyIn(c, table, columns, tuples))
          : direct.copyFrom!(table, columns, tuples),
      transaction: (fn) =>
        session(schema, async (client) => {
          await client.query("begin");
          try {
            const result = await fn(wrap(client));
            await client.query("commit");
            return result;
          } catch (e) {
            await client.query("rollback").catch(() => {});
            throw e;
          }
        }),
      pipelinedTransaction: (fn) => writer.transaction(searchPathStatement(schema), fn),
      async close() {
        // Only the base handle owns the pool.
        if (schema === null) await Promise.all([pool.end(), writer.close()]);
      },
      inSchema(name: string) {
        searchPathStatement(name);
        scoped = true;
        return handle(name);
      },
    };
  };
  const db = handle(null);
  // Fail fast on a bad URL or an unreachable server.
  await db.query("select 1");
  return db;
}
