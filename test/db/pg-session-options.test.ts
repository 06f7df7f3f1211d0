import { describe, expect, it } from "vitest";
import { createPostgresDb } from "../../src/db/pg.js";

// Session settings of Lookout's PostgreSQL connections (PGlite has no JIT and no startup options).
const PG = process.env.TEST_DATABASE_URL;

describe.skipIf(!PG)("PostgreSQL connections (skipped without TEST_DATABASE_URL)", () => {
  const settings = async (url: string) => {
    const db = await createPostgresDb(url);
    try {
      const [row] = await db.query<{ jit: string; timeout: string }>(
        "select current_setting('jit') as jit, current_setting('statement_timeout') as timeout",
      );
      return row;
    } finally {
      await db.close();
    }
  };

  it("run without JIT compilation (the batch's probes were compiled for longer than they ran)", async () => {
    expect((await settings(PG!))?.jit).toBe("off");
  });

  it("keep the URL's own startup options beside it", async () => {
    const u = new URL(PG!);
    u.searchParams.set("options", "-c statement_timeout=12345");
    expect(await settings(u.toString())).toEqual({ jit: "off", timeout: "12345ms" });
  });
});
