import { describe, expect, it } from "vitest";
import { apiStatementTimeout } from "./database.js";

describe("the API reads' statement timeout", () => {
  it("is API_STATEMENT_TIMEOUT_MS, never longer than DB_STATEMENT_TIMEOUT_MS, which 0 for the API means", () => {
    expect(apiStatementTimeout({ apiStatementTimeoutMs: 30_000, dbStatementTimeoutMs: 0 })).toBe(30_000);
    expect(apiStatementTimeout({ apiStatementTimeoutMs: 30_000, dbStatementTimeoutMs: 500 })).toBe(500);
    expect(apiStatementTimeout({ apiStatementTimeoutMs: 2_000, dbStatementTimeoutMs: 15_000 })).toBe(2_000);
    expect(apiStatementTimeout({ apiStatementTimeoutMs: 0, dbStatementTimeoutMs: 15_000 })).toBe(15_000);
    expect(apiStatementTimeout({ apiStatementTimeoutMs: 0, dbStatementTimeoutMs: 0 })).toBe(0);
  });
});
