/**
 * The HTTP API's requests in flight, shared inside one process (`lookout start`: index + serve) with work that
 * gives way to them: history catching up beside the head waits here before each of its steps while a request is
 * being answered, so a request shares the CPU and PostgreSQL with as little of it as possible.
 * The HTTP app counts (`begin`/`end`); the indexer asks (`busy`, `busyWithin`, `idle`).
 *
 * Waiters go one per turn of the event loop (setImmediate), oldest first: the steps that waited for a request do
 * not all run at once when it ends, where the next request would queue behind all of them; a request that arrives
 * meanwhile stops the rest. One that waited `maxWaitMs` goes even while requests are in flight (still one per
 * turn): requests that overlap without a pause, or one slow request, delay the work that gives way, never stop it.
 */
export class RequestActivity {
  private inFlight = 0;
  private lastEnd = Number.NEGATIVE_INFINITY;
  private readonly waiters: Array<{ since: number; wake: () => void }> = [];
  private pending: { cancel(): void } | null = null;

  constructor(private readonly maxWaitMs = 100) {}

  begin(): void {
    this.inFlight++;
  }

  end(): void {
    if (this.inFlight === 0) return;
    this.inFlight--;
    if (this.inFlight > 0) return;
    this.lastEnd = performance.now();
    // The front waiter was timed for a busy API: it may go at the next turn now.
    this.pending?.cancel();
    this.pending = null;
    this.schedule();
  }

  /** A request is being answered now. */
  get busy(): boolean {
    return this.inFlight > 0;
  }

  /** Callers waiting in `idle()` now. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** A request is being answered now or was within the last `ms`: the API is in use, not idle. */
  busyWithin(ms: number): boolean {
    return this.inFlight > 0 || performance.now() - this.lastEnd < ms;
  }

  /** Resolves at once when no request is in flight and nobody waits; else in turn, as described above. */
  idle(): Promise<void> {
    if (this.inFlight === 0 && this.waiters.length === 0) return Promise.resolve();
    return new Promise<void>((wake) => {
      this.waiters.push({ since: performance.now(), wake });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.pending || this.waiters.length === 0) return;
    if (this.inFlight === 0) {
      const immediate = setImmediate(this.release);
      this.pending = { cancel: () => clearImmediate(immediate) };
    } else {
      const due = this.waiters[0]!.since + this.maxWaitMs - performance.now();
      const timer = setTimeout(this.release, Math.max(0, due));
      this.pending = { cancel: () => clearTimeout(timer) };
    }
  }

  private readonly release = (): void => {
    this.pending = null;
    const front = this.waiters[0];
    if (front && (this.inFlight === 0 || performance.now() - front.since >= this.maxWaitMs)) {
      this.waiters.shift();
      front.wake();
    }
    this.schedule();
  };
}
