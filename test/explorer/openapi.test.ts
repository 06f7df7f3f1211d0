import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app/http-app.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

type Schema = { type?: string | string[]; properties?: object; items?: Schema; anyOf?: Schema[] };
type Operation = { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> };

// /api/v2 paths that the verifier's dialects serve (bytecode-db, the verify form), not the explorer.
const NOT_EXPLORER = [/^\/api\/v2\/verifier\//, /^\/api\/v2\/bytecodes\//, /\/verification/];
// Always 403 (no transaction interpretation service): documented, but it has no 2xx.
// Operations that never answer 2xx here: the summary service is not run, the watchlists need an account (401), and
// audit reports cannot be submitted (403), as Blockscout answers without those services.
const NO_2XX = new Set([
  "GET /api/v2/transactions/{transaction_hash_param}/summary",
  "GET /api/v2/transactions/watchlist",
  "GET /api/v2/main-page/transactions/watchlist",
  "POST /api/v2/smart-contracts/{address_hash_param}/audit-reports",
]);

/** An object with members, or a list (or one of several shapes) of such objects. */
function hasMembers(s: Schema | undefined): boolean {
  if (!s) return false;
  if (s.properties && Object.keys(s.properties).length > 0) return true;
  if (s.items) return hasMembers(s.items);
  return (s.anyOf ?? []).some(hasMembers);
}

describe("the OpenAPI document of /api/v2", () => {
  let t: TestDb;
  let doc: { paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    t = await createTestDb();
    const app = await buildApp({ db: t.db, config: { bodyLimit: 1e6 }, logger: false });
    doc = (await app.inject({ url: "/api/docs/openapi.json" })).json();
    await app.close();
  });
  afterAll(() => t?.drop());

  it("documents a 2xx body with members and at least one 4xx for every explorer operation", () => {
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith("/api/v2/") && !NOT_EXPLORER.some((re) => re.test(path)))
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
      );
    expect(operations.length).toBeGreaterThanOrEqual(53);
    const missing: string[] = [];
    for (const { key, op } of operations) {
      const codes = Object.keys(op.responses ?? {});
      const ok = codes.find((c) => c.startsWith("2"));
      const content = ok ? op.responses?.[ok]?.content : undefined;
      // CSV exports answer a CSV body; they document it as such.
      if (key.endsWith("/csv")) {
        if (!content?.["application/csv"]) missing.push(`${key}: no application/csv 2xx body`);
      } else if (!NO_2XX.has(key) && !hasMembers(content?.["application/json"]?.schema))
        missing.push(`${key}: no 2xx body with members`);
      if (!codes.some((c) => c.startsWith("4"))) missing.push(`${key}: no 4xx`);
    }
    expect(missing).toEqual([]);
  });
});
