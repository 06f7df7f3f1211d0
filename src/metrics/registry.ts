import client from "prom-client";

/**
 * The Prometheus metrics of one process (one registry per process, labelled with its role). Parts report into it
 * through the small functions below; gauges read from the database are collected when `/metrics` is scraped.
 */
export type Metrics = {
  readonly registry: client.Registry;
  /** Blocks written by this process and the write time of each range. */
  batchWritten(blocks: number, writeMs: number): void;
  rpcError(method: string): void;
  jobFinished(result: string, durationMs: number): void;
  httpRequest(method: string, route: string, status: number, durationMs: number): void;
  /** Sources read at scrape time; each part sets the ones it has. */
  sources: MetricSources;
};

export type MetricSources = {
  /** Indexed height from the database. */
  height?: () => Promise<number | null>;
  /** The chain head as this process last saw it. */
  head?: () => number | null;
  leaseHeld?: () => boolean;
  queue?: () => Promise<{ pending: number; running: number; oldestAgeS: number }>;
};

export function createMetrics(role: string): Metrics {
  const registry = new client.Registry();
  registry.setDefaultLabels({ role });
  client.collectDefaultMetrics({ register: registry, prefix: "lookout_process_" });
  const sources: MetricSources = {};
  const registers = [registry];

  let lastHeight: number | null = null;
  new client.Gauge({
    name: "lookout_index_height",
    help: "Highest indexed block, read from the database.",
    registers,
    async collect() {
      lastHeight = (await sources.height?.().catch(() => null)) ?? null;
      if (lastHeight !== null) this.set(lastHeight);
    },
  });
  new client.Gauge({
    name: "lookout_index_lag_blocks",
    help: "Chain head minus the indexed height (processes that see the head).",
    registers,
    collect() {
      const head = sources.head?.() ?? null;
      if (head !== null && lastHeight !== null) this.set(Math.max(0, head - lastHeight));
    },
  });
  new client.Gauge({
    name: "lookout_indexer_lease_held",
    help: "1 when this process holds the indexing lease (the active indexer).",
    registers,
    collect() {
      if (sources.leaseHeld) this.set(sources.leaseHeld() ? 1 : 0);
    },
  });
  const batchSeconds = new client.Histogram({
    name: "lookout_index_batch_write_seconds",
    help: "Time to write one indexed range (one transaction).",
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const blocks = new client.Counter({
    name: "lookout_index_blocks_written_total",
    help: "Blocks written by this process.",
    registers,
  });
  const rpcErrors = new client.Counter({
    name: "lookout_rpc_errors_total",
    help: "Failed JSON-RPC requests of the indexed chain's node, by method.",
    labelNames: ["method"],
    registers,
  });
  const queueGauge = (
    name: string,
    help: string,
    pick: (q: { pending: number; running: number; oldestAgeS: number }) => number,
  ) =>
    new client.Gauge({
      name,
      help,
      registers,
      async collect() {
        const q = await sources.queue?.().catch(() => null);
        if (q) this.set(pick(q));
      },
    });
  queueGauge(
    "lookout_verification_jobs_pending",
    "Verification jobs waiting in the queue.",
    (q) => q.pending,
  );
  queueGauge(
    "lookout_verification_jobs_running",
    "Verification jobs claimed by some process.",
    (q) => q.running,
  );
  queueGauge(
    "lookout_verification_jobs_oldest_pending_seconds",
    "Age of the oldest pending verification job.",
    (q) => q.oldestAgeS,
  );
  const jobSeconds = new client.Histogram({
    name: "lookout_verification_job_seconds",
    help: "Duration of a verification job (compiling and matching), by result.",
    labelNames: ["result"],
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers,
  });
  const httpSeconds = new client.Histogram({
    name: "lookout_http_request_seconds",
    help: "HTTP request latency by route.",
    labelNames: ["method", "route", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers,
  });
  return {
    registry,
    sources,
    batchWritten(n, ms) {
      blocks.inc(n);
      batchSeconds.observe(ms / 1000);
    },
    rpcError: (method) => rpcErrors.inc({ method }),
    jobFinished: (result, ms) => jobSeconds.observe({ result }, ms / 1000),
    httpRequest: (method, route, status, ms) =>
      httpSeconds.observe({ method, route, status: String(status) }, ms / 1000),
  };
}
