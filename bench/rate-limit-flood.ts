/**
 * A flood over the rate limit against a second client's latency: the calm client's p50/p99 on
 * /api/v2/main-page/blocks idle, then while 8 flooding loops from another address hammer the same route (most of
 * them answered 429). Both clients behind a proxy (X-Forwarded-For); PGlite with the bench's in-memory counts, or
 * PostgreSQL counts with DATABASE_URL. The flood runs in this process (its client work shares the server's event
 * loop, the worst case on one process) and from a worker thread (a client elsewhere), each beside an idle round.
 * Each flood is also aimed, the same way, at a floor: a bare `node:http` server in this process that answers every
 * request 429 with a ready body and no other work. The calm client's p99 under that flood is what this machine and
 * this arrangement cost on their own; Lookout's share is the flood-on-Lookout p99 over the flood-on-floor p99.
 * Prints the figures and the load average.
 */
import { createServer } from "node:http";
import { loadavg } from "node:os";
import { Worker } from "node:worker_threads";
import { buildApp } from "../src/app/http-app.js";
import { migrate } from "../src/db/migrate.js";
import { createPostgresDb } from "../src/db/pg.js";
import { createPgliteDb } from "../src/db/pglite.js";

const url = process.env.DATABASE_URL;
const db = url ? await createPostgresDb(url) : await createPgliteDb(undefined);
await migrate(db);
const app = await buildApp({
  db,
  config: { bodyLimit: 1e6, apiRateLimitIsBlockscoutBehindProxy: true },
  logger: false,
  rateLimitDb: url ? db : null,
});
await app.listen({ port: 0, host: "127.0.0.1" });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
// The floor: the cheapest 429 a Node server can give (no routing, no hooks, no store, no serialisation).
const FLOOR_BODY = JSON.stringify({ message: "Too many requests" });
const floor = createServer((_req, res) => {
  res.writeHead(429, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(FLOOR_BODY),
    "retry-after": "60",
  });
  res.end(FLOOR_BODY);
});
await new Promise<void>((resolve) => floor.listen(0, "127.0.0.1", resolve));
const floorBase = `http://127.0.0.1:${(floor.address() as { port: number }).port}`;
const ROUTE = "/api/v2/main-page/blocks";
const get = async (ip: string, origin = base) => {
  const t0 = performance.now();
  const r = await fetch(`${origin}${ROUTE}`, { headers: { "x-forwarded-for": ip } });
  await r.arrayBuffer();
  return { ms: performance.now() - t0, status: r.status };
};
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
/** `n` calm requests, sequential; a new client address every 250 (under the limit of 300 a minute). */
async function calm(n: number, tag: number) {
  const out: number[] = [];
  let limited = 0;
  for (let i = 0; i < n; i++) {
    const r = await get(`10.${tag}.${Math.floor(i / 250)}.1`);
    out.push(r.ms);
    if (r.status === 429) limited++;
  }
  return { samples: out, p50: pct(out, 0.5), p99: pct(out, 0.99), limited };
}
const SAMPLES = Number(process.env.FLOOD_SAMPLES ?? 600);
const SETS = Number(process.env.FLOOD_SETS ?? 2);
/** 8 loops from one address in this process (they share the server's event loop) until `stop`. */
function floodHere(origin: string) {
  let stop = false;
  const statuses: Record<number, number> = {};
  const loops = Array.from({ length: 8 }, async () => {
    while (!stop) {
      const r = await get("198.51.100.1", origin);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    }
  });
  return async () => {
    stop = true;
    await Promise.all(loops);
    return statuses;
  };
}
/** The same 8 loops from a worker thread: the flooder's own client work is off the server's event loop. */
function floodFromWorker(origin: string) {
  const w = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     let stop = false; const statuses = {};
     parentPort.on("message", () => { stop = true; });
     const loop = async () => { while (!stop) {
       const r = await fetch(workerData.url, { headers: { "x-forwarded-for": "198.51.100.2" } });
       await r.arrayBuffer(); statuses[r.status] = (statuses[r.status] ?? 0) + 1; } };
     Promise.all(Array.from({ length: 8 }, loop)).then(() => parentPort.postMessage(statuses));`,
    { eval: true, workerData: { url: `${origin}${ROUTE}` } },
  );
  return async () => {
    const done = new Promise<Record<number, number>>((resolve) => w.once("message", resolve));
    w.postMessage("stop");
    const statuses = await done;
    await w.terminate();
    return statuses;
  };
}
// The flooders' addresses spend their allowance first: every round measures a flood answered 429 only.
for (const ip of ["198.51.100.1", "198.51.100.2"]) while ((await get(ip)).status !== 429);
// Per set: idle; flood from a worker thread on Lookout, then on the floor; flood from this process on the floor,
// then on Lookout; idle (A B B A around the idle rounds, each placement's two targets side by side).
const rows: Array<Record<string, unknown>> = [];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
for (let set = 0; set < SETS; set++) {
  const before = await calm(SAMPLES, 10 + set);
  const during: Array<{
    mode: string;
    target: string;
    r: Awaited<ReturnType<typeof calm>>;
    flood: Record<number, number>;
    load: string;
  }> = [];
  const rounds = [
    ["worker-thread", "lookout", floodFromWorker],
    ["worker-thread", "floor", floodFromWorker],
    ["same-process", "floor", floodHere],
    ["same-process", "lookout", floodHere],
  ] as const;
  for (const [i, [mode, target, start]] of rounds.entries()) {
    // The flooder's window may have ended since (a run can outlast a minute on a loaded machine): it spends its
    // new allowance first, so the round measures 429s only.
    if (target === "lookout")
      while ((await get(mode === "worker-thread" ? "198.51.100.2" : "198.51.100.1")).status !== 429);
    const stopFlood = start(target === "lookout" ? base : floorBase);
    // Let the flood reach its 429s before measuring.
    await new Promise((r) => setTimeout(r, 300));
    const r = await calm(SAMPLES, 20 + set * 4 + i);
    during.push({ mode, target, r, flood: await stopFlood(), load: load() });
  }
  const after = await calm(SAMPLES, 40 + set);
  const idle = [...before.samples, ...after.samples];
  const idleP50 = pct(idle, 0.5);
  const idleP99 = pct(idle, 0.99);
  const floorP99 = (mode: string) => during.find((d) => d.mode === mode && d.target === "floor")!.r.p99;
  for (const { mode, target, r, flood, load: l } of during)
    rows.push({
      set,
      flooder: mode,
      target,
      idle_p50: idleP50.toFixed(2),
      idle_p99: idleP99.toFixed(2),
      flood_p50: r.p50.toFixed(2),
      flood_p99: r.p99.toFixed(2),
      ratio_p99: Number((r.p99 / idleP99).toFixed(2)),
      ratio_p50: Number((r.p50 / idleP50).toFixed(2)),
      over_floor_p99: Number((r.p99 / floorP99(mode)).toFixed(2)),
      calm_limited: r.limited,
      flood_429: flood[429] ?? 0,
      flood_other: Object.entries(flood)
        .filter(([k]) => k !== "429")
        .reduce((n, [, v]) => n + v, 0),
      load: l,
    });
}
console.log(`store: ${url ? "postgres" : "memory"} (ms)`);
console.table(rows);
await app.close();
await new Promise((resolve) => floor.close(resolve));
await db.close();
