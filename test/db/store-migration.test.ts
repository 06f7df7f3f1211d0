import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/db.js";
import { migrate } from "../../src/db/migrate.js";
import { createPostgresDb } from "../../src/db/pg.js";
import { createPgliteDb } from "../../src/db/pglite.js";
import { packagePath } from "../../src/util/package-root.js";
import { getVerifiedContract } from "../../src/verifier/store/index.js";
import { createTestDatabaseUrl } from "../helpers/db.js";

// Migration 006 moves sources and compiled code of verified contracts into verified_compilations, once per
// compilation: rows stored before it must read back unchanged.
describe("migration 006: verified contracts stored before it", () => {
  let db: Db;
  let drop: (() => Promise<void>) | undefined;
  let before: string;

  beforeAll(async () => {
    const pg = await createTestDatabaseUrl();
    db = pg ? await createPostgresDb(pg.url) : await createPgliteDb();
    drop = pg?.drop;
    before = mkdtempSync(join(tmpdir(), "lookout-migrations-"));
    const all = packagePath("src/db/migrations");
    for (const f of readdirSync(all).filter((f) => f < "006")) copyFileSync(join(all, f), join(before, f));
    await migrate(db, before);
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
    rmSync(before, { recursive: true, force: true });
  });

  const artifacts = {
    language: "Solidity",
    compilerVersion: "0.8.26+commit.8a97fa7a",
    immutableReferences: {},
  };
  const abi = [{ type: "function", name: "f", inputs: [], outputs: [], stateMutability: "view" }];
  const insertOld = (address: string, contractName: string) =>
    db.query(
      `insert into verified_contracts (chain_id, address, match_type, creation_match, runtime_match, language, compiler,
         compiler_version, compiler_settings, sources, file_name, contract_name, abi, compiled_creation_code,
         compiled_runtime_code, compiled_artifacts, onchain_runtime_code, runtime_code_length, creation_code_prefix)
       values (31337, $1, 'full', 'full', 'full', 'Solidity', 'solc', 'v0.8.26+commit.8a97fa7a', $2, $3, 'A.sol', $4,
         $5, '\\x6080'::bytea, '\\x60aa'::bytea, $6, '\\x60aa'::bytea, 2, '\\x6080'::bytea)`,
      [
        Buffer.from(address, "hex"),
        JSON.stringify({ optimizer: { enabled: false } }),
        JSON.stringify({ "A.sol": "contract A {} contract B {}" }),
        contractName,
        JSON.stringify(abi),
        JSON.stringify({ ...artifacts, abi }),
      ],
    );

  it("keeps every row readable and stores each compilation once", async () => {
    await insertOld("11".repeat(20), "A");
    await insertOld("22".repeat(20), "A");
    await insertOld("33".repeat(20), "B");
    const { applied } = await migrate(db);
    expect(applied).toContain("006_verified_compilations.sql");
    const [n] = await db.query<{ contracts: number; compilations: number }>(
      `select (select count(*)::int from verified_contracts) as contracts,
              (select count(*)::int from verified_compilations) as compilations`,
    );
    expect(n).toEqual({ contracts: 3, compilations: 2 });
    for (const [address, name] of [
      [`0x${"11".repeat(20)}`, "A"],
      [`0x${"22".repeat(20)}`, "A"],
      [`0x${"33".repeat(20)}`, "B"],
    ] as const) {
      const rec = await getVerifiedContract(db, "31337", address);
      expect(rec).toMatchObject({
        address,
        contractName: name,
        fileName: "A.sol",
        compilerVersion: "v0.8.26+commit.8a97fa7a",
        sources: { "A.sol": "contract A {} contract B {}" },
        compilerSettings: { optimizer: { enabled: false } },
        abi,
      });
      expect(rec!.compiled).toEqual({ ...artifacts, abi, creationCode: "0x6080", runtimeCode: "0x60aa" });
    }
    const columns = await db.query<{ column_name: string }>(
      "select column_name from information_schema.columns where table_name = 'verified_contracts'",
    );
    expect(columns.map((c) => c.column_name)).not.toContain("sources");
  });
});
