import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../src/app/http-app.js";
import { toBytea } from "../src/db/bytes.js";
import { migrate } from "../src/db/migrate.js";
import { createPgliteDb } from "../src/db/pglite.js";
import { startLiveUpdates } from "../src/live/index.js";
import { createLogger } from "../src/util/logger.js";
import { packagePath } from "../src/util/package-root.js";

/**
 * bench:live: new-block delivery latency after commit, at 1,000 and 10,000 subscribers of `blocks:new_block`
 * (`npm run bench:live -- 1000 10000`). For each block: a row is written, then the committed range is emitted on the
 * bus as the indexer's extension does after a commit; the latency of a subscriber is the time from that emit to the
 * frame's arrival in the subscribers' process. Baseline, same run: the bare fan-out, one prepared frame written to
 * every socket (no database read, no rendering).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const now = () => performance.timeOrigin + performance.now();

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function run(n: number) {
  const dir = mkdtempSync(join(tmpdir(), "lookout-bench-live-"));
  const db = await createPgliteDb(dir);
  await migrate(db);
  const live = startLiveUpdates({ db, logger: createLogger("silent"), serve: true });
  const app = await buildApp({
    db,
    config: { bodyLimit: 1 << 20 },
    logger: false,
    live: { hub: live.hub, maxSocketsPerClient: 100_000 },
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const child = fork(packagePath("bench/live-clients.ts"), [url, String(n)], {
    execArgv: ["--import", "tsx"],
    stdio: "inherit",
  });
  const messages: Array<(m: any) => void> = [];
  child.on("message", (m) => messages.shift()?.(m));
  const next = () => new Promise<any>((resolve) => messages.push(resolve));
  try {
    await next(); // every socket joined
    const results: Record<string, number[]> = { lookout: [], baseline: [] };
    for (let round = 0; round < ROUNDS * 2; round++) {
      const height = round + 1;
      const mode = round % 2 === 0 ? "lookout" : "baseline";
      await db.query(
        `insert into blocks (number, hash, parent_hash, timestamp, miner, gas_used, gas_limit, base_fee_per_gas, size, transaction_count)
         values ($1, $2, $3, now(), $4, 21000, 30000000, 1000000000, 600, 1)`,
        [
          height,
          toBytea(height.toString(16).padStart(64, "0")),
          toBytea("00".repeat(32)),
          toBytea("11".repeat(20)),
        ],
      );
      const arrived = next();
      const t0 = now();
      if (mode === "lookout") live.bus.emit({ kind: "blocks", from: height, to: height });
      else
        live.hub.broadcast("blocks:new_block", "new_block", { average_block_time: "0", block: { height } });
      const { times } = await arrived;
      // The first rounds warm up (JIT, prepared plans).
      if (round >= 4) results[mode]!.push(...(times as number[]).map((t) => t - t0));
    }
    const row = (name: string, list: number[]) => {
      const s = [...list].sort((a, b) => a - b);
      return `${String(n).padStart(6)} subscribers  ${name.padEnd(9)} p50 ${pct(s, 50).toFixed(1).padStart(7)} ms  p99 ${pct(s, 99).toFixed(1).padStart(7)} ms`;
    };
    console.log(row("lookout", results.lookout!));
    console.log(row("baseline", results.baseline!));
  } finally {
    child.kill();
    await app.close();
    await live.stop();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const n of sizes.length ? sizes : [1000, 10000]) await run(n);
