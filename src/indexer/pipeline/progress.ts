/** Indexing progress from which the terminal line, the log lines and /health are drawn. */
export type ProgressSnapshot = {
  height: number | null;
  head: number | null;
  blocksPerSecond: number;
  etaSeconds: number | null;
  caughtUp: boolean;
  /** Head first: history catching up beside the head (null when the index is one range). */
  history: HistoryProgress | null;
};

/** History's cursor (null before its first batch) below the head segment starting at `headStart`. */
export type HistoryProgress = { start: number; block: number | null; headStart: number };

export class Progress {
  height: number | null = null;
  head: number | null = null;
  caughtUp = false;
  lastError: string | null = null;
  history: HistoryProgress | null = null;
  private samples: Array<{ t: number; h: number }> = [];

  update(height: number | null, head: number | null, now = Date.now()) {
    this.height = height;
    if (head !== null) this.head = head;
    if (height !== null) {
      this.samples.push({ t: now, h: height });
      // Rate over the last 10 seconds.
      while (this.samples.length > 2 && now - this.samples[0]!.t > 10_000) this.samples.shift();
    }
  }

  snapshot(): ProgressSnapshot {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const dt = first && last ? (last.t - first.t) / 1000 : 0;
    const rate = first && last && dt > 0 ? Math.max(0, (last.h - first.h) / dt) : 0;
    const left = this.head !== null && this.height !== null ? Math.max(0, this.head - this.height) : null;
    return {
      height: this.height,
      head: this.head,
      blocksPerSecond: rate,
      etaSeconds: left !== null && rate > 0 ? left / rate : left === 0 ? 0 : null,
      caughtUp: this.caughtUp,
      history: this.history && { ...this.history },
    };
  }
}

export function formatDuration(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return "?";
  if (s < 60) return `${Math.ceil(s)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.ceil(s % 60)).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

export function formatProgress(p: ProgressSnapshot): string {
  if (p.caughtUp && p.history) {
    const h = p.history;
    const done = (h.block ?? h.start - 1) - h.start + 1;
    const pct = ((done / Math.max(1, h.headStart - h.start)) * 100).toFixed(1);
    return `indexing history: block ${h.block ?? "-"} of ${h.headStart - 1} (${pct}%); head at ${p.height ?? "-"}`;
  }
  const pct = p.head ? (((p.height ?? 0) / p.head) * 100).toFixed(1) : "0.0";
  return `indexing: block ${p.height ?? "-"} of ${p.head ?? "?"} (${pct}%), ${p.blocksPerSecond.toFixed(1)} blocks/s, ${formatDuration(p.etaSeconds)} left`;
}

/**
 * Shows progress while catching up: a live line on a terminal, a log line every 5 s otherwise.
 * Returns a stop function.
 */
export function reportProgress(
  progress: Progress,
  log: { info(obj: object, msg: string): void },
  stream: NodeJS.WriteStream = process.stderr,
): () => void {
  const tty = stream.isTTY === true;
  let shown = false;
  const tick = () => {
    const s = progress.snapshot();
    if (s.caughtUp && !s.history) {
      if (shown && tty) stream.write("\r\x1b[2K");
      shown = false;
      return;
    }
    if (s.head === null) return;
    if (tty) {
      stream.write(`\r\x1b[2K${formatProgress(s)}`);
      shown = true;
    } else {
      log.info(
        {
          height: s.height,
          head: s.head,
          ...(s.history ? { history_block: s.history.block, head_start: s.history.headStart } : {}),
          blocks_per_second: Number(s.blocksPerSecond.toFixed(2)),
          eta_seconds: s.etaSeconds === null ? null : Math.round(s.etaSeconds),
        },
        formatProgress(s),
      );
    }
  };
  const timer = setInterval(tick, tty ? 500 : 5000);
  timer.unref();
  return () => {
    clearInterval(timer);
    if (shown && tty) stream.write("\r\x1b[2K");
  };
}
