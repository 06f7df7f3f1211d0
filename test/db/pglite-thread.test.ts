import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/db.js";
import { createPgliteDb } from "../../src/db/pglite.js";
import { PGLITE_TEMPLATE } from "../helpers/db.js";

// The embedded database as the service runs it (its SQL in a worker thread) against the same on this thread: the
// same answers, the same errors, and the process's event loop free while a statement runs.
const template = () => (existsSync(PGLITE_TEMPLATE) ? new Blob([readFileSync(PGLITE_TEMPLATE)]) : undefined);

describe("PGlite in a worker thread", () => {
  let threaded: Db;
  let here: Db;
  beforeAll(async () => {
    [threaded, here] = await Promise.all([
      createPgliteDb(undefined, template(), { thread: true }),
      createPgliteDb(undefined, template()),
    ]);
    for (const db of [threaded, here])
      await db.exec("create table t (a int primary key, b bytea, n numeric)");
  });
  afterAll(async () => {
    await Promise.all([threaded?.close(), here?.close()]);
  });

  it("answers with the same values and types as on this thread", async () => {
    const sql = `select $1::bytea as b, 9007199254740991::int8 as i, '123456789012345678901234567890'::numeric as n,
      timestamptz '2024-01-02 03:04:05Z' as t, '{"k":[1,2]}'::jsonb as j, array[$1::bytea, null] as bs, null as z`;
    const params = [Buffer.from("c0ffee", "hex")];
    const [a] = await threaded.query<Record<string, unknown>>(sql, params);
    const [b] = await here.query<Record<string, unknown>>(sql, params);
    expect(a).toEqual(b);
    expect(a!.b).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(a!.b as Uint8Array).toString("hex")).toBe("c0ffee");
    expect(a!.i).toBe(9007199254740991);
    expect(a!.n).toBe("123456789012345678901234567890");
    expect(a!.t).toBeInstanceOf(Date);
  });

  it("fails a statement with PostgreSQL's error fields", async () => {
    await threaded.query("insert into t (a) values (1)");
    const e = await threaded.query("insert into t (a) values (1)").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ code: "23505", constraint: "t_pkey", table: "t" });
    expect((e as Error).message).toMatch(/duplicate key/);
    const z = await threaded.query("select 1 / 0").catch((x: unknown) => x);
    expect(z).toMatchObject({ code: "22012" });
  });

  it("commits a transaction that resolves, rolls back one that throws or whose statement fails", async () => {
    await threaded.transaction(async (tx) => {
      await tx.query("insert into t (a, b) values (10, $1)", [Buffer.from([1])]);
      await tx.copyFrom!("t", ["a", "b", "n"], "11\t\\\\x0a0b\t1.5\n12\t\\N\t\\N\n");
    });
    await expect(
      threaded.transaction(async (tx) => {
        await tx.query("insert into t (a) values (20)");
        throw new Error("the caller's own failure");
      }),
    ).rejects.toThrow("the caller's own failure");
    await expect(
      threaded.transaction(async (tx) => {
        await tx.query("insert into t (a) values (21)");
        await tx.query("insert into t (a) values (10)");
      }),
    ).rejects.toMatchObject({ code: "23505" });
    const rows = await threaded.query<{ a: number; b: Uint8Array | null; n: string | null }>(
      "select a, b, n from t where a >= 10 order by a",
    );
    expect(rows.map((r) => [r.a, r.b && Buffer.from(r.b).toString("hex"), r.n])).toEqual([
      [10, "01", null],
      [11, "0a0b", "1.5"],
      [12, null, null],
    ]);
  });

  it("statements from outside wait for a transaction in flight, and see its rows only once committed", async () => {
    let inside!: () => void;
    const entered = new Promise<void>((r) => {
      inside = r;
    });
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const tx = threaded.transaction(async (t) => {
      await t.query("insert into t (a) values (30)");
      inside();
      await held;
    });
    await entered;
    let answered = false;
    const read = threaded.query<{ c: number }>("select count(*)::int as c from t where a = 30").then((r) => {
      answered = true;
      return r[0]!.c;
    });
    // The connection is the transaction's until it ends: the read cannot have run in between.
    await new Promise((r) => setTimeout(r, 50));
    expect(answered).toBe(false);
    release();
    await tx;
    expect(await read).toBe(1);
  });

  it("leaves the event loop free while a long statement runs", async () => {
    const sql = "select count(*)::int as c from generate_series(1, 3000000) g where g % 7 = 0";
    const turns = async (db: Db) => {
      let n = 0;
      let done = false;
      const q = db.query<{ c: number }>(sql).then((r) => {
        done = true;
        return r[0]!.c;
      });
      while (!done) {
        await new Promise((r) => setImmediate(r));
        n += 1;
      }
      return { c: await q, n };
    };
    const there = await turns(threaded);
    const local = await turns(here);
    expect(there.c).toBe(428571);
    expect(local.c).toBe(there.c);
    // On this thread the statement blocks the loop: it answers within a couple of turns; in the worker the loop
    // keeps turning for as long as it runs.
    expect(local.n).toBeLessThanOrEqual(3);
    expect(there.n).toBeGreaterThan(20);
  });

  it("dumps a data directory that opens again with the same rows", async () => {
    const dump = await (threaded as Db & { dump(): Promise<Blob> }).dump();
    const again = await createPgliteDb(undefined, dump, { thread: true });
    try {
      expect(await again.query("select a from t where a >= 10 order by a")).toEqual([
        { a: 10 },
        { a: 11 },
        { a: 12 },
        { a: 30 },
      ]);
    } finally {
      await again.close();
    }
  });

  it("refuses work once closed", async () => {
    const db = await createPgliteDb(undefined, template(), { thread: true });
    expect(await db.query("select 1 as x")).toEqual([{ x: 1 }]);
    await db.close();
    await expect(db.query("select 1")).rejects.toThrow(/closed/);
  });
});
