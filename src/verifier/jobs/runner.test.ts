import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../test/helpers/db.js";
import type { VerifyRequest, VerifyResponse } from "../service/index.js";
import { createJobRunner } from "./runner.js";

const request = (
  address: string,
  compiler = "0.8.26",
): VerifyRequest & { contracts: [{ chainId: string; address: string }] } => ({
  language: "Solidity",
  compiler,
  contracts: [{ chainId: "31337", address }],
  input: { language: "Solidity", sources: { "a.sol": { content: "contract A {}" } } },
});
const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";

const verified = (address: string): VerifyResponse => ({
  kind: "verification",
  items: [
    {
      status: "FULLY_VERIFIED",
      message: "ok",
      chainId: "31337",
      address: address as `0x${string}`,
      matchType: "full",
      creationMatch: "full",
      runtimeMatch: "full",
      contractName: "A",
      fileName: "a.sol",
    },
  ],
});

describe("verification job runner", () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb();
  });
  afterEach(async () => {
    await t.drop();
  });

  it("runs a job to its outcome; dedups by contract while active; records failures", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const runner = createJobRunner({
      db: t.db,
      verify: async (req) => {
        await gate;
        if (req.contracts[0]!.address === B)
          return { kind: "compilationFailure", message: "boom", errors: ["Error: boom"] };
        return verified(A);
      },
    });
    await runner.start();
    const first = await runner.submit(request(A));
    expect(first.status).toBe("queued");
    const same = await runner.submit(request(A));
    expect(same).toMatchObject({ status: "duplicate", sameRequest: true, job: { id: first.job.id } });
    const other = await runner.submit(request(A, "0.8.24"));
    expect(other).toMatchObject({ status: "duplicate", sameRequest: false });
    const b = await runner.submit(request(B));
    expect(b.status).toBe("queued");
    expect((await runner.get(first.job.id))?.state).toBe("running");
    release();
    await runner.idle();
    expect((await runner.get(first.job.id))?.outcome).toMatchObject({
      result: "verified",
      matchType: "full",
    });
    expect((await runner.get(b.job.id))?.outcome).toMatchObject({
      result: "failed",
      code: "compilation_failed",
    });
    // Done: the same contract can be submitted again.
    expect((await runner.submit(request(A))).status).toBe("queued");
    await runner.idle();
    await runner.stop();
  });

  it("picks up a job left running by a stopped process", async () => {
    const stuck = createJobRunner({ db: t.db, verify: () => new Promise(() => {}) });
    await stuck.start();
    const { job } = await stuck.submit(request(A));
    // A stop that does not wait: the job stays `running` in the table, as after a crash.
    await stuck.stop(10);
    expect((await stuck.get(job.id))?.state).toBe("running");

    const fresh = createJobRunner({ db: t.db, verify: async () => verified(A) });
    await fresh.start();
    await fresh.idle();
    const done = await fresh.get(job.id);
    expect(done).toMatchObject({ state: "done", attempts: 2, outcome: { result: "verified" } });
    await fresh.stop();
  });

  it("fails a job interrupted too often instead of retrying it forever", async () => {
    const stuck = createJobRunner({ db: t.db, verify: () => new Promise(() => {}), maxAttempts: 1 });
    await stuck.start();
    const { job } = await stuck.submit(request(A));
    await stuck.stop(10);
    const fresh = createJobRunner({ db: t.db, verify: async () => verified(A), maxAttempts: 1 });
    await fresh.start();
    await fresh.idle();
    expect((await fresh.get(job.id))?.outcome).toMatchObject({ result: "failed", code: "internal_error" });
    await fresh.stop();
  });
});
