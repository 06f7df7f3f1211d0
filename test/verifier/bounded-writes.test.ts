import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { proxyRefresh, requestProxyRefresh } from "../../src/chain-store/proxy-refresh.js";
import { OUTCOME_TEXT_MAX, outcomeOf } from "../../src/verifier/jobs/outcome.js";
import { claimJob, finishJob, getJob, insertJob } from "../../src/verifier/jobs/store.js";
import {
  compilationFailureMessage,
  type VerifyRequest,
  withOutputSelection,
} from "../../src/verifier/service/index.js";
import { offlineCompilers } from "../helpers/compilers.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

/** What anonymous clients can leave in the database: bounded however often or however big they send. */
describe("bounded anonymous writes", () => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await t?.drop();
    t = undefined;
  });

  it("a flood of verifyproxycontract for one proxy leaves one open request, and every repeat gets its GUID", async () => {
    t = await createTestDb();
    const proxy = `0x${"ab".repeat(20)}` as const;
    const other = `0x${"cd".repeat(20)}` as const;
    const guids = await Promise.all(Array.from({ length: 300 }, () => requestProxyRefresh(t!.db, proxy)));
    expect(new Set(guids).size).toBe(1);
    const otherGuid = await requestProxyRefresh(t.db, other);
    expect(otherGuid).not.toBe(guids[0]);
    const [row] = await t.db.query<{ open: number; total: number }>(
      `select count(*) filter (where answered_block is null)::int as open, count(*)::int as total
       from proxy_refresh_requests`,
    );
    expect(row).toEqual({ open: 2, total: 2 });
    expect(await proxyRefresh(t.db, guids[0]!)).toEqual({ state: "pending", address: proxy });
    // Once answered, a new request opens a new one.
    await t.db.query("update proxy_refresh_requests set answered_block = 1 where guid = $1", [guids[0]]);
    const next = await requestProxyRefresh(t.db, proxy);
    expect(next).not.toBe(guids[0]);
    expect((await proxyRefresh(t.db, guids[0]!))?.state).toBe("answered");
  });

  it("a failed 4 MB verification request leaves a row of a few hundred bytes; its status still answers", async () => {
    t = await createTestDb();
    // The real shape of a padded submission: a source with a 4 MB comment of random (incompressible) text.
    const comment = randomBytes(3 * 1024 * 1024).toString("base64");
    const request: VerifyRequest = {
      language: "solidity",
      compiler: "0.8.26",
      contracts: [{ address: `0x${"12".repeat(20)}`, name: "C", file: "C.sol" }],
      input: {
        language: "Solidity",
        sources: { "C.sol": { content: `// ${comment}\ncontract C {}` } },
        settings: {},
      },
    } as unknown as VerifyRequest;
    const { job } = await insertJob(t.db, { chainId: "1", address: `0x${"12".repeat(20)}` }, request);
    const size = async () =>
      (
        await t!.db.query<{ bytes: number }>(
          "select pg_column_size(j.*)::int as bytes from verification_jobs j where id = $1",
          [job.id],
        )
      )[0]!.bytes;
    const queued = await size();
    expect(queued).toBeGreaterThan(4_000_000);
    const claimed = await claimJob(t.db, "test", 60_000);
    expect(claimed?.job.request).not.toBeNull();
    const failed = { result: "failed", code: "compilation_failed", message: "the compiler crashed" } as const;
    expect(await finishJob(t.db, job.id, claimed!.lease, failed as never, 1234)).toBe(true);
    const done = await size();
    expect(done).toBeLessThan(1024);
    const after = await getJob(t.db, job.id);
    expect(after).toMatchObject({ state: "done", outcome: failed, request: null, durationMs: 1234 });
    console.log(`verification job row: ${queued} bytes queued, ${done} bytes once finished`);
  });

  it("a compile error quoting a 1 MB line leaves a finished row of kilobytes, not the compiler's whole message", async () => {
    t = await createTestDb();
    const compilers = await offlineCompilers();
    try {
      // solc quotes the literal in its message (twice: the type and the source excerpt), for every such line.
      const literal = randomBytes(768 * 1024).toString("base64");
      const content = `pragma solidity ^0.8.0;\ncontract C { uint a = "${literal}"; uint b = "${literal}"; }\n`;
      const input = { language: "Solidity", sources: { "C.sol": { content } }, settings: {} };
      const out = await compilers.compile({
        language: "Solidity",
        version: "v0.8.37+commit.f401782d",
        input: withOutputSelection(input),
      });
      const errors = (out.errors ?? [])
        .filter((e) => e.severity === "error")
        .map((e) => e.formattedMessage ?? e.message);
      expect(errors.length).toBe(2);
      expect(errors.every((e) => e.length > 1_000_000)).toBe(true);
      const outcome = outcomeOf({
        kind: "compilationFailure",
        message: compilationFailureMessage(errors),
        errors,
      });
      const address = `0x${"34".repeat(20)}`;
      const request = {
        language: "solidity",
        compiler: "0.8.37",
        contracts: [{ address }],
        input,
      } as unknown as VerifyRequest;
      const { job } = await insertJob(t.db, { chainId: "1", address }, request);
      const claimed = await claimJob(t.db, "test", 60_000);
      expect(await finishJob(t.db, job.id, claimed!.lease, outcome, 10)).toBe(true);
      const [row] = await t.db.query<{ bytes: number }>(
        "select pg_column_size(j.*)::int as bytes from verification_jobs j where id = $1",
        [job.id],
      );
      expect(row!.bytes).toBeLessThan(16 * 1024);
      const done = await getJob(t.db, job.id);
      expect(done?.outcome).toMatchObject({ result: "failed", code: "compilation_failed" });
      const kept = done!.outcome as { message: string; errors: string[] };
      // What the user needs is still there: the error's kind and where it starts.
      expect(kept.errors[0]).toMatch(/^TypeError: Type literal_string/);
      expect(kept.errors.every((e) => e.length < OUTCOME_TEXT_MAX + 100)).toBe(true);
      console.log(
        `compile-error job row: ${row!.bytes} bytes once finished (errors ${errors.map((e) => e.length)} chars)`,
      );
    } finally {
      await compilers.close();
    }
  });
});
