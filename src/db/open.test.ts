import { describe, expect, it } from "vitest";
import { cappedStatementTimeout } from "./open.js";

describe("a pool's own statement timeout under DB_STATEMENT_TIMEOUT_MS", () => {
  it("is its own, never longer than DB_STATEMENT_TIMEOUT_MS when that is set; 0 takes DB_STATEMENT_TIMEOUT_MS's", () => {
    expect(cappedStatementTimeout(30_000, 0)).toBe(30_000);
    expect(cappedStatementTimeout(30_000, 500)).toBe(500);
    expect(cappedStatementTimeout(2_000, 15_000)).toBe(2_000);
    expect(cappedStatementTimeout(0, 15_000)).toBe(15_000);
    expect(cappedStatementTimeout(0, 0)).toBe(0);
  });
});
