import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "lookout-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[], env: Record<string, string>) {
  const p = runCli(args, { DATA_DIR: dir, ...env });
  const { code } = await p.exited;
  return { code, out: p.output() };
}

describe("lookout CLI", () => {
  it.each(["start", "serve", "index", "migrate"])(
    "%s --help describes the command and its options",
    async (cmd) => {
      const r = await run([cmd, "--help"], {});
      expect(r.code).toBe(0);
      expect(r.out).toContain(`Usage: lookout ${cmd}`);
      expect(r.out).toMatch(/--database-url\s+\[DATABASE_URL\]/);
    },
  );

  it("rejects a non-numeric PORT, naming the variable", async () => {
    const r = await run(["serve"], { PORT: "eighty" });
    expect(r.code).toBe(2);
    // stdout is a pipe: the reason is one JSON record.
    expect((JSON.parse(r.out.trim()) as { msg: string }).msg).toMatch(
      /PORT.*expected a whole number.*"eighty"/,
    );
  });

  it("rejects a malformed DATABASE_URL, naming the variable", async () => {
    const r = await run(["migrate"], { DATABASE_URL: "localhost:5432/db" });
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/DATABASE_URL.*postgres: or postgresql: URL/);
  });

  it("stops with a clear message when DATABASE_URL points at no server", async () => {
    const r = await run(["migrate"], { DATABASE_URL: "postgres://postgres@127.0.0.1:1/none" });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/Cannot connect to the database at DATABASE_URL/);
  });

  it("stops with a clear message when RPC_URL is unreachable", async () => {
    const r = await run(["index"], { RPC_URL: "http://127.0.0.1:1", RPC_RETRIES: "1" });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/Cannot reach the chain at RPC_URL \(http:\/\/127\.0\.0\.1:1\)/);
  });

  it("migrates the embedded database and reports it is up to date on a second run", async () => {
    const fresh = join(dir, "fresh");
    const first = await run(["migrate"], { DATA_DIR: fresh });
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/Applied \d+ migration/);
    const second = await run(["migrate"], { DATA_DIR: fresh });
    expect(second.out).toContain("Database is up to date.");
  });

  it("refuses an unknown command and an unknown flag", async () => {
    expect((await run(["frobnicate"], {})).code).toBe(2);
    const r = await run(["serve", "--no-such-flag"], {});
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/no-such-flag/);
  });
});
