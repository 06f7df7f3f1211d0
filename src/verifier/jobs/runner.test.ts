import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../test/helpers/db.js";
import type { VerifyRequest, VerifyResponse } from "../service/index.js";
import { createJobRunner } from "./runner.js";
import { claimJob, finishJob, insertJob } from "./store.js";

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

  it("a stop that cannot wait hands the unfinished job back to the queue; the next runner finishes it", async () => {
    const stuck = createJobRunner({ db: t.db, verify: () => new Promise(() => {}) });
    await stuck.start();
    const { job } = await stuck.submit(request(A));
    await stuck.stop(10);
    expect((await stuck.get(job.id))?.state).toBe("pending");

    const fresh = createJobRunner({ db: t.db, verify: async () => verified(A) });
    await fresh.start();
    await fresh.idle();
    const done = await fresh.get(job.id);
    expect(done).toMatchObject({ state: "done", attempts: 2, outcome: { result: "verified" } });
    await fresh.stop();
  });

  it("takes over a job whose owner died once its lease expires, and the dead owner cannot record a result", async () => {
    const { job } = await insertJob(t.db, { chainId: "31337", address: A }, request(A)).then((r) => r);
    // A process claims the job and dies (nobody renews the lease).
    const dead = await claimJob(t.db, "dead-process", 1);
    expect(dead?.job.id).toBe(job.id);
    await waitUntil(async () => (await leaseExpired(t, job.id)) === true);

    const fresh = createJobRunner({ db: t.db, verify: async () => verified(A), pollMs: 50 });
    await fresh.start();
    await waitUntil(async () => (await fresh.get(job.id))?.state === "done");
    const done = await fresh.get(job.id);
    expect(done).toMatchObject({ attempts: 2, outcome: { result: "verified" } });
    // The stale holder's late outcome is refused.
    const late = await finishJob(
      t.db,
      job.id,
      dead!.lease,
      { result: "failed", code: "no_match", message: "x" },
      1,
    );
    expect(late).toBe(false);
    expect((await fresh.get(job.id))?.outcome).toMatchObject({ result: "verified" });
    await fresh.stop();
  });

  // Seconds, not 300 ms: the heartbeat (a third of the lease) must not miss a whole lease on a loaded machine,
  // where this process may get no CPU for a second or two; a missed lease would be the machine, not the runner.
  const LIVE_LEASE_MS = 3_000;
  it("a live owner's heartbeat keeps its job: a second runner never takes it over", async () => {
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const slow = createJobRunner({
      db: t.db,
      verify: async () => {
        calls++;
        await gate;
        return verified(A);
      },
      leaseMs: LIVE_LEASE_MS,
      pollMs: 50,
    });
    const other = createJobRunner({
      db: t.db,
      verify: async () => {
        calls++;
        return verified(A);
      },
      leaseMs: LIVE_LEASE_MS,
      pollMs: 50,
    });
    await slow.start();
    const { job } = await slow.submit(request(A));
    await other.start();
    await waitUntil(async () => (await slow.get(job.id))?.state === "running");
    // Two whole lease periods pass while the job runs.
    const [row0] = await t.db.query<{ lease_expires_at: Date }>(
      "select lease_expires_at from verification_jobs where id = $1",
      [job.id],
    );
    await waitUntil(async () => {
      const [r] = await t.db.query<{ lease_expires_at: Date }>(
        "select lease_expires_at from verification_jobs where id = $1",
        [job.id],
      );
      return r!.lease_expires_at.getTime() > row0!.lease_expires_at.getTime() + 2 * LIVE_LEASE_MS;
    });
    release();
    await waitUntil(async () => (await slow.get(job.id))?.state === "done");
    expect(calls).toBe(1);
    expect(await slow.get(job.id)).toMatchObject({ attempts: 1, outcome: { result: "verified" } });
    await slow.stop();
    await other.stop();
  });

  it("fails a job interrupted too often instead of retrying it forever", async () => {
    await insertJob(t.db, { chainId: "31337", address: A }, request(A));
    const dead = await claimJob(t.db, "dead-process", 1);
    await waitUntil(async () => (await leaseExpired(t, dead!.job.id)) === true);
    const fresh = createJobRunner({ db: t.db, verify: async () => verified(A), maxAttempts: 1 });
    await fresh.start();
    await fresh.idle();
    expect((await fresh.get(dead!.job.id))?.outcome).toMatchObject({
      result: "failed",
      code: "internal_error",
    });
    await fresh.stop();
  });
});

async function leaseExpired(t: TestDb, id: string): Promise<boolean> {
  const [r] = await t.db.query<{ expired: boolean }>(
    "select lease_expires_at < now() as expired from verification_jobs where id = $1",
    [id],
  );
  return r?.expired ?? false;
}

async function waitUntil(cond: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > timeoutMs) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}
