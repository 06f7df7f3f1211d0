import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CopyType, CopyWriter } from "../../src/db/copy-writer.js";
import { command, type Db } from "../../src/db/db.js";
import { isConnectionLoss } from "../../src/db/failures.js";
import { createPostgresDb } from "../../src/db/pg.js";
import { createTestDatabaseUrl } from "../helpers/db.js";

// The indexer's batch transactions on PostgreSQL go through the writer thread (src/db/pg-writer.ts): writes are
// posted without waiting, and still commit all or nothing. PGlite has no such transaction.
const PG = process.env.TEST_DATABASE_URL;

/** Rows as binary COPY tuples of `types`. */
function tuples(types: CopyType[], ...rows: unknown[][]): Buffer {
  const w = new CopyWriter();
  for (const row of rows) {
    w.row(types.length);
    for (const [i, v] of row.entries()) w.field(v, types[i]!);
  }
  return w.bytes();
}

describe.skipIf(!PG)("a pipelined transaction (skipped without TEST_DATABASE_URL)", () => {
  let db: Db;
  let drop: () => Promise<void>;
  const rows = async (sql = "select k, v, b from pipe_t order by k") => db.query(sql);

  beforeAll(async () => {
    const u = (await createTestDatabaseUrl())!;
    drop = u.drop;
    db = await createPostgresDb(u.url);
    await db.exec("create table pipe_t (k int primary key, v text, b bytea)");
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it("runs writes in order and reads see them; rows come back as the main pool gives them", async () => {
    const read = await db.pipelinedTransaction!(async (tx) => {
      await command(tx, "insert into pipe_t (k, v, b) values ($1, $2, $3)", [
        1,
        "one",
        Buffer.from("ab01", "hex"),
      ]);
      await tx.copyFrom!(
        "pipe_t",
        ["k", "v", "b"],
        tuples(["int4", "text", "bytea"], [2, "two", "0x02"], [3, "three", null]),
      );
      await command(tx, "update pipe_t set v = v || '!' where k = any($1::int[])", [[1, 3]]);
      return tx.query<{ k: number; v: string; b: Buffer | null }>("select k, v, b from pipe_t order by k");
    });
    expect(read.map((r) => [r.k, r.v])).toEqual([
      [1, "one!"],
      [2, "two"],
      [3, "three!"],
    ]);
    // bytea crosses the thread as a Uint8Array; callers get a Buffer, as from the main pool.
    expect(Buffer.isBuffer(read[0]!.b)).toBe(true);
    expect(read[0]!.b!.toString("hex")).toBe("ab01");
    expect(await rows()).toHaveLength(3);
  });

  it("sends bytea[] parameters in binary that read back as the same values, nulls and empty bytes included", async () => {
    const values = [Buffer.from("00ff10", "hex"), null, Buffer.alloc(0), Buffer.from("a".repeat(40), "hex")];
    const sql =
      "select v, v is null as missing from unnest($1::bytea[]) with ordinality as u(v, o) order by o";
    const expected = values.map((v) => ({ v: v === null ? null : v.toString("hex"), missing: v === null }));
    const read = (rs: Array<{ v: Uint8Array | null; missing: boolean }>) =>
      rs.map((r) => ({ v: r.v === null ? null : Buffer.from(r.v).toString("hex"), missing: r.missing }));
    // The main pool, and the writer thread (its parameters moved, not copied), as a read and as a write.
    expect(read(await db.query(sql, [values]))).toEqual(expected);
    const inThread = await db.pipelinedTransaction!(async (tx) => {
      await command(
        tx,
        "insert into pipe_t (k, b) select 100 + o, v from unnest($1::bytea[]) with ordinality as u(v, o)",
        [values],
      );
      return tx.query<{ v: Uint8Array | null; missing: boolean }>(sql, [values]);
    });
    expect(read(inThread)).toEqual(expected);
    // The caller's Buffers are untouched by the move.
    expect(values[0]!.toString("hex")).toBe("00ff10");
    const written = await db.query<{ b: Uint8Array | null }>("select b from pipe_t where k > 100 order by k");
    expect(written.map((r) => (r.b === null ? null : Buffer.from(r.b).toString("hex")))).toEqual(
      expected.map((e) => e.v),
    );
    await db.exec("delete from pipe_t where k > 100");
  });

  it("a failed write fails the commit with the database's error and nothing of the transaction stays", async () => {
    const before = await rows();
    const attempt = db.pipelinedTransaction!(async (tx) => {
      await command(tx, "insert into pipe_t (k, v) values (10, 'ten')");
      // Resolves at once although it fails (duplicate key): the failure is reported by the commit.
      await command(tx, "insert into pipe_t (k, v) values (1, 'again')");
      await tx.copyFrom!("pipe_t", ["k", "v"], tuples(["int4", "text"], [11, "eleven"]));
    });
    await expect(attempt).rejects.toMatchObject({ code: "23505" });
    expect(await rows()).toEqual(before);
  });

  it("a failed write fails the next read awaited, and the transaction is rolled back", async () => {
    const before = await rows();
    let reached = false;
    const attempt = db.pipelinedTransaction!(async (tx) => {
      await command(tx, "insert into pipe_t (k, v) values (20, 'twenty')");
      // k as eight bytes for an int4 column: the database refuses the field.
      await tx.copyFrom!("pipe_t", ["k", "v"], tuples(["int8", "text"], [21, "x"]));
      await tx.query("select 1");
      reached = true;
    });
    await expect(attempt).rejects.toMatchObject({ code: "22P03" });
    expect(reached).toBe(false);
    expect(await rows()).toEqual(before);
  });

  it("an error thrown by the caller rolls back what was posted", async () => {
    const before = await rows();
    await expect(
      db.pipelinedTransaction!(async (tx) => {
        await command(tx, "insert into pipe_t (k, v) values (30, 'thirty')");
        throw new Error("the caller's own failure");
      }),
    ).rejects.toThrow("the caller's own failure");
    expect(await rows()).toEqual(before);
  });

  it("transactions at once run on connections of their own, each all or nothing", async () => {
    const each = (k: number, fail: boolean) =>
      db.pipelinedTransaction!(async (tx) => {
        for (let i = 0; i < 20; i++)
          await command(tx, "insert into pipe_t (k, v) values ($1, 'x')", [k * 100 + i]);
        if (fail) await command(tx, "insert into pipe_t (k, v) values (1, 'duplicate')");
        await tx.query("select pg_sleep(0.05)");
      });
    const results = await Promise.allSettled([each(40, false), each(41, true), each(42, false)]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const [n] = await db.query<{ n: number }>(
      "select count(*)::int as n from pipe_t where k between 4000 and 4299",
    );
    expect(n!.n).toBe(40);
  });

  it("a connection the server ends fails as a lost connection (transient), and the next transaction gets another", async () => {
    const attempt = db.pipelinedTransaction!(async (tx) => {
      const [me] = await tx.query<{ pid: number }>("select pg_backend_pid() as pid");
      await db.query("select pg_terminate_backend($1)", [me!.pid]);
      await command(tx, "insert into pipe_t (k, v) values (50, 'fifty')");
      await tx.query("select 1");
    });
    const failure = await attempt.catch((e: unknown) => e);
    expect(isConnectionLoss(failure)).toBe(true);
    await db.pipelinedTransaction!(async (tx) => {
      await command(tx, "insert into pipe_t (k, v) values (51, 'fifty-one')");
    });
    expect(await db.query("select k from pipe_t where k between 50 and 51")).toEqual([{ k: 51 }]);
  });

  it("closing the database ends the writer thread, also with a transaction its caller left open", async () => {
    const u = (await createTestDatabaseUrl())!;
    const other = await createPostgresDb(u.url);
    try {
      let began!: () => void;
      const begun = new Promise<void>((resolve) => {
        began = resolve;
      });
      // A caller that never finishes its transaction (its process part gone): the close must not wait for it.
      void other.pipelinedTransaction!(async (tx) => {
        await tx.query("select 1");
        began();
        await new Promise(() => {});
      }).catch(() => {});
      await begun;
      await other.close();
      const admin = await createPostgresDb(PG!);
      try {
        // Its connection is gone with the thread (the server may take a moment to notice the closed socket).
        const name = new URL(u.url).pathname.slice(1);
        let left = 1;
        for (let i = 0; i < 100 && left > 0; i++) {
          const [r] = await admin.query<{ n: number }>(
            "select count(*)::int as n from pg_stat_activity where datname = $1",
            [name],
          );
          left = r!.n;
          if (left > 0) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(left).toBe(0);
      } finally {
        await admin.close();
      }
    } finally {
      await u.drop();
    }
  });

  it("a chain's handle writes in its own schema", async () => {
    await db.exec(
      "create schema pipe_chain; create table pipe_chain.pipe_t (k int primary key, v text, b bytea)",
    );
    const chain = db.inSchema!("pipe_chain");
    await chain.pipelinedTransaction!(async (tx) => {
      await command(tx, "insert into pipe_t (k, v) values (7, 'seven')");
    });
    expect(await db.query("select k from pipe_chain.pipe_t")).toEqual([{ k: 7 }]);
    expect(await db.query("select k from public.pipe_t where k = 7")).toEqual([]);
    // The same thread's connections go back to the default path for the base handle.
    await db.pipelinedTransaction!(async (tx) => {
      await command(tx, "insert into pipe_t (k, v) values (8, 'eight')");
    });
    expect(await db.query("select k from public.pipe_t where k = 8")).toEqual([{ k: 8 }]);
  });
});
