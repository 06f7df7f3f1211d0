import { createHash } from "node:crypto";
import pg from "pg";
import type { Db, Queryable, QueryOptions } from "./db.js";
import { connectionLost } from "./failures.js";

// node-postgres parses int8 as string and numeric[] as floats (losing precision); fix both once for our pools.
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

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
      const values = params as unknown[] | undefined;
      const r = options?.prepare
        ? await client.query({ name: statementName(sql), text: sql, ...(values ? { values } : {}) })
        : await client.query(sql, values);
      return r.rows as T[];
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

export type PostgresPoolOptions = {
  /** Connections in the pool. */
  max?: number;
  /** statement_timeout of every connection, ms (0 or unset: none). */
  statementTimeoutMs?: number;
};

export async function createPostgresDb(url: string, options: PostgresPoolOptions = {}): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types: typeParsers,
    // A peer that vanished (kill -9 of a process, a dropped network) must not hold our connections forever.
    keepAlive: true,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  });
  // Idle clients can lose their server; without a handler the pool's 'error' event would crash the process.
  pool.on("error", () => {});
  const base = wrap(pool);
  // Fail fast on a bad URL or an unreachable server.
  await base.query("select 1");
  return {
    kind: "postgres",
    ...base,
    async transaction(fn) {
      const client = await pool.connect();
      // pg-pool drops its own 'error' listener while a client is checked out: a session the server ends between
      // two statements (pg_terminate_backend, failover, idle_in_transaction_session_timeout) would emit an
      // unhandled 'error' and end the process. Here it only fails this transaction; the next statement rejects.
      let lost: Error | undefined;
      const onError = (err: Error) => {
        lost = err;
      };
      client.on("error", onError);
      try {
        await client.query("begin");
        const result = await fn(wrap(client));
        await client.query("commit");
        return result;
      } catch (e) {
        if (!lost) await client.query("rollback").catch(() => {});
        throw lost ? connectionLost(lost) : e;
      } finally {
        client.removeListener("error", onError);
        // A broken connection goes out of the pool instead of back into it.
        client.release(lost ?? undefined);
      }
    },
    async close() {
      await pool.end();
    },
  };
}
