import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CopyType, CopyWriter, copyType } from "../../src/db/copy-writer.js";
import type { Db } from "../../src/db/db.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

// The indexer's COPYs go in PostgreSQL's binary format (src/db/copy-writer.ts): every type it writes, read back by
// the database (PGlite, or PostgreSQL with TEST_DATABASE_URL) as the values given.
const COLUMNS: Array<[string, CopyType]> = [
  ["i8", "int8"],
  ["i4", "int4"],
  ["i2", "int2"],
  ["b", "bool"],
  ["raw", "bytea"],
  ["n", "numeric"],
  ["t", "text"],
  ["j", "jsonb"],
  ["ts", "timestamptz"],
  ["hashes", "bytea[]"],
  ["path", "int4[]"],
];

/** Each row as the database prints its columns (`::text`; the time as Unix seconds, whatever the session's zone). */
const AS_TEXT = `select ${COLUMNS.map(([c, type]) => (type === "timestamptz" ? `extract(epoch from ${c})::text` : `${c}::text`)).join(", ")} from copy_t order by k`;

describe("binary COPY tuples (CopyWriter)", () => {
  let t: TestDb;
  let db: Db;
  beforeAll(async () => {
    t = await createTestDb();
    db = t.db;
    await db.exec(
      `create table copy_t (k int4 primary key, ${COLUMNS.map(([c, type]) => `${c} ${type}`).join(", ")})`,
    );
  });
  afterAll(async () => {
    await t?.drop();
  });

  const copy = async (rows: unknown[][]) => {
    const w = new CopyWriter(8);
    rows.forEach((row, k) => {
      w.row(1 + COLUMNS.length);
      w.field(k, "int4");
      for (const [i, [, type]] of COLUMNS.entries()) w.field(row[i], type);
    });
    await db.exec("delete from copy_t");
    await db.copyFrom!("copy_t", ["k", ...COLUMNS.map(([c]) => c)], w.bytes());
    return (await db.query<Record<string, string | null>>(AS_TEXT)).map((r) => Object.values(r));
  };

  it("writes every column type the indexer stores, at its edges, as the database reads them", async () => {
    const uint256Max = `${2n ** 256n - 1n}`;
    const read = await copy([
      [
        2 ** 53 - 1,
        2_147_483_647,
        32_767,
        true,
        "0xDEADbeef",
        uint256Max,
        "tab\there, newline\nthere, back\\slash, caf\u00e9 \u{1F600}",
        '{"a": [1, "x"]}',
        1_700_000_000,
        ["0x01", "0xff00"],
        [0, 1, 65_536],
      ],
      [
        -(2 ** 53 - 1),
        -2_147_483_648,
        -32_768,
        false,
        Buffer.from([0, 255]),
        `-${uint256Max}`,
        "",
        "{}",
        0,
        [],
        [],
      ],
      [0, 0, 0, false, "0x", "0", "x", "null", 1_700_000_000.5, [Buffer.from([7])], [3]],
      [7n, "12", 1, true, "", "0.00012345", "plain", "[]", 1, ["0xab"], [2]],
      [12_345_678_901n, 5, 2, false, "0x00", "12345.6789", "a", "1", 86_400, ["0x"], [1, 2]],
      [null, null, null, null, null, null, null, null, null, null, null],
      [1, 1, 1, true, "0x01", 10 ** 21, "z", "2", 2, ["0x02"], [0]],
      [1, 1, 1, true, "0x01", "-0.5", "z", "2", 2, ["0x02"], [0]],
    ]);
    expect(read).toEqual([
      [
        `${2 ** 53 - 1}`,
        "2147483647",
        "32767",
        "true",
        "\\xdeadbeef",
        uint256Max,
        "tab\there, newline\nthere, back\\slash, caf\u00e9 \u{1F600}",
        '{"a": [1, "x"]}',
        "1700000000.000000",
        '{"\\\\x01","\\\\xff00"}',
        "{0,1,65536}",
      ],
      [
        `${-(2 ** 53 - 1)}`,
        "-2147483648",
        "-32768",
        "false",
        "\\x00ff",
        `-${uint256Max}`,
        "",
        "{}",
        "0.000000",
        "{}",
        "{}",
      ],
      ["0", "0", "0", "false", "\\x", "0", "x", "null", "1700000000.500000", '{"\\\\x07"}', "{3}"],
      ["7", "12", "1", "true", "\\x", "0.00012345", "plain", "[]", "1.000000", '{"\\\\xab"}', "{2}"],
      [
        "12345678901",
        "5",
        "2",
        "false",
        "\\x00",
        "12345.6789",
        "a",
        "1",
        "86400.000000",
        '{"\\\\x"}',
        "{1,2}",
      ],
      [null, null, null, null, null, null, null, null, null, null, null],
      ["1", "1", "1", "true", "\\x01", "1000000000000000000000", "z", "2", "2.000000", '{"\\\\x02"}', "{0}"],
      ["1", "1", "1", "true", "\\x01", "-0.5", "z", "2", "2.000000", '{"\\\\x02"}', "{0}"],
    ]);
  });

  it("refuses a value it cannot encode whole, instead of storing less", () => {
    const w = new CopyWriter();
    // Node's hex decoding stops at the first bad pair; the field must not be stored shortened.
    expect(() => w.field("0xabzz", "bytea")).toThrow(/malformed hex/);
    expect(() => w.field("0xabc", "bytea")).toThrow(/malformed hex/);
    expect(() => w.field("0x\u0109\u010a", "bytea")).toThrow(/malformed hex/);
    expect(() => w.field("12a", "numeric")).toThrow(/not a decimal/);
    expect(() => w.field("1.", "numeric")).toThrow(/not a decimal/);
    expect(() => w.field("-", "numeric")).toThrow(/not a decimal/);
    expect(() => copyType("money")).toThrow(/money/);
  });

  it("gives small tuples in memory of their size, not the writer's", () => {
    const w = new CopyWriter(64 * 1024);
    w.row(1);
    w.field(1, "int8");
    expect([...w.bytes()]).toEqual([0, 1, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(w.bytes().buffer.byteLength).toBeLessThan(64 * 1024);
  });
});
