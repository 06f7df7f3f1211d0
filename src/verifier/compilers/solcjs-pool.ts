import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { CompilerError } from "./errors.js";
import { SOLCJS_WORKER_SOURCE } from "./solcjs-worker-source.js";
import type { Logger } from "./types.js";

export type SolcJsPoolOptions = {
  size: number;
  maxLoadedPerWorker: number;
  timeoutMs: number;
  memoryLimitMb: number;
  logger: Logger;
};

type Job = {
  id: number;
  type: "compile" | "version";
  soljsonPath: string;
  /** Standard JSON in pieces, joined by the worker. */
  input?: readonly string[];
  resolve: (s: string) => void;
  reject: (e: unknown) => void;
};

type Slot = { worker: Worker; job: Job | undefined; loaded: string[]; timer?: NodeJS.Timeout };

type Reply = { id: number; ok: boolean; result?: string; error?: string; loaded: string[] };

const OOM_RE = /out of memory|Cannot enlarge memory|Array buffer allocation failed|Aborted\(OOM\)|bad_alloc/i;

const crashed = (details: string) =>
  new CompilerError(
    "crash",
    `the compiler crashed${details ? `: ${details.split("\n")[0]!.slice(0, 200)}` : ""}`,
    {
      details,
    },
  );

const wrapperPath = createRequire(import.meta.url).resolve("solc/wrapper.js");

/**
 * solc-js (WebAssembly) runs in worker threads, never on the event loop. Jobs go to an idle worker that already
 * has their soljson loaded when there is one, since loading a soljson takes seconds.
 */
export class SolcJsPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: SolcJsPoolOptions) {}

  compile(soljsonPath: string, input: readonly string[]): Promise<string> {
    return this.submit("compile", soljsonPath, input);
  }

  /** The long version the soljson reports, e.g. 0.8.26+commit.8a97fa7a.Emscripten.clang. */
  version(soljsonPath: string): Promise<string> {
    return this.submit("version", soljsonPath);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0))
      job.reject(new CompilerError("unavailable", "Compiler pool closed"));
    // A job running in a worker ends with it (its exit event no longer finds the slot).
    await Promise.all(
      this.slots.splice(0).map((s) => {
        clearTimeout(s.timer);
        s.job?.reject(new CompilerError("unavailable", "Compiler pool closed"));
        s.job = undefined;
        return s.worker.terminate();
      }),
    );
  }

  private submit(type: Job["type"], soljsonPath: string, input?: readonly string[]): Promise<string> {
    if (this.closed) return Promise.reject(new CompilerError("unavailable", "Compiler pool closed"));
    return new Promise<string>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, type, soljsonPath, input, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    for (let i = 0; i < this.queue.length; ) {
      const job = this.queue[i]!;
      const idle = this.slots.filter((s) => !s.job);
      let slot = idle.find((s) => s.loaded.includes(job.soljsonPath));
      if (!slot && this.slots.length < this.opts.size) slot = this.spawn();
      slot ??= idle.find((s) => s.loaded.length < this.opts.maxLoadedPerWorker) ?? idle[0];
      if (!slot) return;
      this.queue.splice(i, 1);
      this.start(slot, job);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(SOLCJS_WORKER_SOURCE, {
      eval: true,
      workerData: {
        wrapperPath,
        maxLoaded: this.opts.maxLoadedPerWorker,
        // The worker refuses to grow a soljson's WebAssembly memory past this (see the worker source).
        wasmLimitBytes: this.opts.memoryLimitMb * 1024 * 1024,
      },
      // Bounds the JS heap; the WebAssembly memory is bounded by the worker itself (above).
      resourceLimits: { maxOldGenerationSizeMb: this.opts.memoryLimitMb },
    });
    const slot: Slot = { worker, job: undefined, loaded: [] };
    worker.on("message", (reply: Reply) => this.finish(slot, reply));
    worker.on("error", (e: Error & { code?: string }) => {
      const oom = e.code === "ERR_WORKER_OUT_OF_MEMORY";
      this.fail(slot, oom ? this.outOfMemory(e.message) : crashed(e.message));
    });
    worker.on("exit", (code) => this.fail(slot, crashed(`solc-js worker exited (${code})`)));
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.timer = setTimeout(() => {
      this.fail(slot, new CompilerError("timeout", `compilation timed out after ${this.opts.timeoutMs} ms`));
    }, this.opts.timeoutMs);
    slot.worker.postMessage({ id: job.id, type: job.type, soljsonPath: job.soljsonPath, input: job.input });
  }

  private finish(slot: Slot, reply: Reply): void {
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    if (!reply.ok) {
      // An exception inside the compiler leaves its WebAssembly state undefined (a stack overflow can stop it
      // half-way through an allocation): the worker is discarded, never reused.
      const error = reply.error ?? "";
      this.fail(slot, OOM_RE.test(error) ? this.outOfMemory(error) : crashed(error));
      return;
    }
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.loaded = reply.loaded;
    job.resolve(reply.result ?? "");
    this.pump();
  }

  private outOfMemory(details: string): CompilerError {
    return new CompilerError(
      "memory",
      `the compiler ran out of memory (limit ${this.opts.memoryLimitMb} MB)`,
      { details },
    );
  }

  /**
   * A worker that timed out, crashed, ran out of memory, threw from the compiler or exited is dropped; its job
   * fails; the queue goes on with a new one.
   */
  private fail(slot: Slot, error: CompilerError): void {
    const idx = this.slots.indexOf(slot);
    if (idx < 0) return;
    this.slots.splice(idx, 1);
    clearTimeout(slot.timer);
    slot.job?.reject(error);
    slot.job = undefined;
    void slot.worker.terminate();
    if (!this.closed) {
      this.opts.logger.warn({ err: error.message }, "solc-js worker replaced");
      this.pump();
    }
  }
}
