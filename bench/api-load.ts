import { execFile } from "node:child_process";
import { Agent, request } from "node:http";
import { promisify } from "node:util";
import { packagePath } from "../src/util/package-root.js";

/**
 * Load generator for bench:api, run in its own process so it does not share an event loop with the server:
 * `concurrency` keep-alive connections each issue requests back to back for `durationMs` (after a warm-up),
 * recording every latency. Prints one JSON line: requests per second, p50/p99 (ms), errors.
 */
export type LoadResult = {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Requests sent in all, warm-up included. */
  sent?: number;
  /** CPU time (user + system) of the measuring process per request sent, in ms: the server's cost (interleavedRounds). */
  cpuPerRequestMs?: number;
};

export async function runLoad(o: {
  url: string;
  concurrency: number;
  durationMs: number;
  warmupMs: number;
}): Promise<LoadResult> {
  const target = new URL(o.url);
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency });
  const once = () =>
    new Promise<boolean>((resolve) => {
      const req = request(
        { host: target.hostname, port: target.port, path: target.pathname + target.search, agent },
        (res) => {
          res.on("data", () => {});
          res.on("end", () => resolve(res.statusCode === 200));
        },
      );
      req.on("error", () => resolve(false));
      req.end();
    });
  const phase = async (ms: number, record: boolean) => {
    const latencies: number[] = [];
    let errors = 0;
    const end = performance.now() + ms;
    await Promise.all(
      Array.from({ length: o.concurrency }, async () => {
        while (performance.now() < end) {
          const t0 = performance.now();
          const ok = await once();
          if (record) latencies.push(performance.now() - t0);
          if (!ok) errors++;
        }
      }),
    );
    return { latencies, errors };
  };
  const warm = await phase(o.warmupMs, true);
  const t0 = performance.now();
  const { latencies, errors } = await phase(o.durationMs, true);
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: pct(0.5),
    p99: pct(0.99),
    errors,
    sent: warm.latencies.length + latencies.length,
  };
}

/** `runLoad` in a child process (so the load generator never shares an event loop with the server it measures). */
export async function loadInChild(url: string, concurrency: number, durationMs: number): Promise<LoadResult> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      "--import",
      "tsx",
      packagePath("bench/api-load.ts"),
      url,
      String(concurrency),
      String(durationMs),
      "1000",
    ],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as LoadResult;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * Measures every URL `rounds` times, interleaved and with the order rotated each round, so drifting background
 * load on a shared machine hits every target alike. Returns each URL's results in round order.
 */
export async function interleavedRounds(
  urls: readonly string[],
  o: {
    rounds: number;
    concurrency: number;
    durationMs: number;
    onResult?: (i: number, round: number, r: LoadResult) => void;
  },
): Promise<LoadResult[][]> {
  const runs = urls.map(() => [] as LoadResult[]);
  for (let round = 0; round < o.rounds; round++) {
    for (let k = 0; k < urls.length; k++) {
      const i = (k + round) % urls.length;
      // The servers run in this process and nothing else does meanwhile: its CPU time is the server's.
      const cpu = process.cpuUsage();
      const r = await loadInChild(urls[i]!, o.concurrency, o.durationMs);
      const used = process.cpuUsage(cpu);
      if (r.sent) r.cpuPerRequestMs = (used.user + used.system) / 1000 / r.sent;
      runs[i]!.push(r);
      o.onResult?.(i, round, r);
    }
  }
  return runs;
}

/** Medians over rounds of one target's figures; errors summed. */
export function summarise(runs: readonly LoadResult[]): {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  cpuPerRequestMs: number;
} {
  return {
    rps: median(runs.map((r) => r.rps)),
    cpuPerRequestMs: median(runs.map((r) => r.cpuPerRequestMs ?? Number.NaN)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

if (process.argv[1]?.endsWith("api-load.ts")) {
  const [url, concurrency, durationMs, warmupMs] = process.argv.slice(2);
  const r = await runLoad({
    url: url!,
    concurrency: Number(concurrency),
    durationMs: Number(durationMs),
    warmupMs: Number(warmupMs),
  });
  process.stdout.write(`${JSON.stringify(r)}\n`);
}
