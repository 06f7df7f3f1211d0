import { Value } from "@sinclair/typebox/value";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { SearchResultSchema } from "../../src/explorer/search/schema.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

const address = (i: number) => Buffer.from(i.toString(16).padStart(40, "0"), "hex");

/** /api/v2/search pages name matches by next_page_params, as the frontend follows them (null sent as "null"). */
describe("search: paging name matches", () => {
  let t: TestDb;
  let app: App;
  const MATCHING = 130;

  beforeAll(async () => {
    t = await createTestDb();
    // Holder counts with many ties, so the cursor's name and address decide; and tokens that must not match.
    for (let i = 1; i <= MATCHING + 5; i++) {
      const name = i <= MATCHING ? `Alpha Token ${i}` : `Beta Coin ${i}`;
      await t.db.query(
        `insert into tokens (address, type, name, symbol, holders_count, first_block)
         values ($1, 'ERC-20', $2, $3, $4, 0)`,
        [address(i), name, `T${i}`, i % 7],
      );
    }
    app = await buildApp({ db: t.db, config: { bodyLimit: 1e6 }, logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it("walks every match once, most holders first, in pages of 50", async () => {
    const seen: Array<{ hash: string; holders: number }> = [];
    const holdersOf = new Map(
      Array.from({ length: MATCHING }, (_, k) => [`0x${address(k + 1).toString("hex")}`, (k + 1) % 7]),
    );
    let params: Record<string, unknown> | null = { q: "alpha tok" };
    let pages = 0;
    while (params && pages < 10) {
      const qs: URLSearchParams = new URLSearchParams(
        Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
      );
      const r: { statusCode: number; json(): any } = await app.inject({ url: `/api/v2/search?${qs}` });
      expect(r.statusCode).toBe(200);
      const body = r.json();
      expect([...Value.Errors(SearchResultSchema, body)].map((e) => e.path)).toEqual([]);
      expect(body.items.length).toBeLessThanOrEqual(50);
      for (const item of body.items) {
        expect(item.type).toBe("token");
        const hash = item.address_hash.toLowerCase();
        seen.push({ hash, holders: holdersOf.get(hash)! });
      }
      params = body.next_page_params ? { ...body.next_page_params } : null;
      pages++;
    }
    expect(pages).toBe(3);
    expect(new Set(seen.map((s) => s.hash)).size).toBe(MATCHING);
    expect(seen).toHaveLength(MATCHING);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.holders).toBeLessThanOrEqual(seen[i - 1]!.holders);
  });
});
