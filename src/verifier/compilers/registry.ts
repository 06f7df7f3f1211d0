import { mkdir } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { InvalidInputError } from "../../errors/base.js";
import { checksumOf } from "./checksum.js";
import {
  type CompilationCache,
  canonicalJsonParts,
  compilationKey,
  compilerText,
  DiskCache,
  MemoryLruCache,
  TieredCache,
} from "./compilation-cache.js";
import { fetchCompilerList, type ListedBuild } from "./compiler-list.js";
import { Downloader } from "./downloader.js";
import { CompilerError } from "./errors.js";
import { solidityEvmVersions, vyperEvmVersions } from "./evm-versions.js";
import { discoverInstalledSolcJs, findSoljsonFiles } from "./installed-solcjs.js";
import { STORE, type StoreKind, scanStore, storePath } from "./local-store.js";
import { runNative } from "./native-runner.js";
import { guardOutput, sanitizeInput } from "./sanitize.js";
import { Semaphore } from "./semaphore.js";
import { SolcJsPool } from "./solcjs-pool.js";
import type {
  CompileRequest,
  Compiler,
  CompilerLanguage,
  CompilerOutput,
  CompilersConfig,
  CompilerVersionInfo,
  Logger,
  StandardJsonInput,
} from "./types.js";
import {
  atLeast,
  type CompilerVersion,
  compareVersions,
  displayVersion,
  parseVersion,
  resolveVersion,
} from "./version.js";

export const DEFAULT_SOLC_LIST_URL = "https://binaries.soliditylang.org/linux-amd64/list.json";
export const DEFAULT_SOLCJS_LIST_URL = "https://binaries.soliditylang.org/bin/list.json";
/** Built from the GitHub releases of vyperlang/vyper by Blockscout (blockscout/solc-bin vyper/vyper_fetch.sh). */
export const DEFAULT_VYPER_LIST_URL =
  "https://raw.githubusercontent.com/blockscout/solc-bin/main/vyper.list.json";

/** Every way one version can be run; the registry picks one at compile time. */
/** A compile request made ready: the sanitiser's own answer, or what the compiler gets and its cache key. */
type Prepared =
  | { output: CompilerOutput }
  | { entry: Entry; input: StandardJsonInput; text: readonly string[]; key: string };

type Entry = {
  version: CompilerVersion;
  key: string;
  native?: { build: ListedBuild | undefined } | undefined;
  solcJs?: { build: ListedBuild | undefined } | undefined;
  npmPath?: string | undefined;
};

type Lists = { solc?: ListedBuild[]; solcjs?: ListedBuild[]; vyper?: ListedBuild[] };

const NATIVE_PLATFORM = process.platform === "linux" && process.arch === "x64";

export class CompilerRegistry implements Compiler {
  private readonly cfg: Required<Omit<CompilersConfig, "fetch">> & { fetch: typeof fetch };
  private readonly downloader: Downloader;
  private readonly pool: SolcJsPool;
  private readonly semaphore: Semaphore;
  private readonly cache: CompilationCache;
  /** The cache's memory tier alone: failed compiles stay there (see compileUncached). */
  private readonly memoryCache: CompilationCache;
  private readonly inflight = new Map<string, Promise<CompilerOutput>>();
  /** Compilers made ready at least once in this process (language and version): no download to wait for. */
  private readonly prepared = new Set<string>();
  private lists: Lists = {};
  private local: Record<StoreKind, Set<string>> = {
    solcNative: new Set(),
    solcJs: new Set(),
    vyperNative: new Set(),
  };
  private installed: Array<{ key: string; soljsonPath: string }> = [];
  private solidity: Entry[] = [];
  private vyper: Entry[] = [];
  private readonly readyPromise: Promise<void>;
  private discovered = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  /** Counters for tests and metrics. */
  readonly stats = { compilations: 0, cacheHits: 0 };

  constructor(
    config: CompilersConfig,
    private readonly logger: Logger,
  ) {
    const cores = availableParallelism();
    this.cfg = {
      compilersDir: config.compilersDir,
      solcListUrl: config.solcListUrl ?? DEFAULT_SOLC_LIST_URL,
      solcjsListUrl: config.solcjsListUrl ?? DEFAULT_SOLCJS_LIST_URL,
      vyperListUrl: config.vyperListUrl ?? DEFAULT_VYPER_LIST_URL,
      concurrency: Math.max(1, config.concurrency ?? cores),
      timeoutMs: config.timeoutMs ?? 120_000,
      memoryLimitMb: config.memoryLimitMb ?? 4096,
      listRefreshMs: config.listRefreshMs ?? 3_600_000,
      useInstalledSolcJs: config.useInstalledSolcJs ?? true,
      preferNative: config.preferNative ?? true,
      downloadAttempts: config.downloadAttempts ?? 3,
      downloadBackoffMs: config.downloadBackoffMs ?? 1000,
      solcJsLoadedPerWorker: config.solcJsLoadedPerWorker ?? 2,
      memoryCacheEntries: config.memoryCacheEntries ?? 200,
      discoveryWaitMs: config.discoveryWaitMs ?? 60_000,
      fetch: config.fetch ?? fetch,
    };
    this.downloader = new Downloader({
      fetch: this.cfg.fetch,
      logger,
      attempts: this.cfg.downloadAttempts,
      backoffMs: this.cfg.downloadBackoffMs,
    });
    this.pool = new SolcJsPool({
      size: this.cfg.concurrency,
      maxLoadedPerWorker: this.cfg.solcJsLoadedPerWorker,
      timeoutMs: this.cfg.timeoutMs,
      memoryLimitMb: this.cfg.memoryLimitMb,
      logger,
    });
    this.semaphore = new Semaphore(this.cfg.concurrency);
    this.memoryCache = new MemoryLruCache(this.cfg.memoryCacheEntries);
    this.cache = new TieredCache([this.memoryCache, new DiskCache(join(this.cfg.compilersDir, "cache"))]);
    this.readyPromise = this.start()
      .catch((e) => {
        // Never fatal: whatever was found so far is served, and compile() reports what is missing.
        this.logger.error(
          { err: e instanceof Error ? e.message : String(e) },
          "compiler registry start-up failed",
        );
      })
      .finally(() => {
        this.discovered = true;
      });
  }

  /**
   * Resolves once the lists were fetched (or found unreachable) and local compilers were found. Never rejects.
   * Discovery runs in the background from construction on; the lists grow as it goes.
   */
  ready(): Promise<void> {
    return this.readyPromise;
  }

  /** `whenReady` with the configured bound (`discoveryWaitMs`): what requests wait on. */
  settled(): Promise<boolean> {
    return this.whenReady(this.cfg.discoveryWaitMs);
  }

  /** Whether discovery has finished (successfully or not). */
  get isReady(): boolean {
    return this.discovered;
  }

  /**
   * Waits for discovery at most `maxMs`; true when it finished. Requests wait on this so that their answer does
   * not depend on how soon after start they arrive.
   */
  async whenReady(maxMs: number): Promise<boolean> {
    if (this.discovered) return true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((r) => {
      timer = setTimeout(() => r(false), maxMs);
    });
    try {
      return await Promise.race([this.readyPromise.then(() => true as const), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Number of compiler files downloaded by this process. */
  get downloads(): number {
    return this.downloader.downloads;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    // Closing the pool first ends the probes of a discovery still running (shutdown must not wait for them).
    await this.pool.close();
    await this.readyPromise;
  }

  /**
   * Discovery: the three lists, the compilers in COMPILERS_DIR, the installed solc-js versions (probed in the pool
   * when neither the list nor an earlier probe names them). Progress is logged at most once a second, then one
   * line with what was found.
   */
  private async start(): Promise<void> {
    const t0 = Date.now();
    await mkdir(this.cfg.compilersDir, { recursive: true });
    const files = this.cfg.useInstalledSolcJs ? await findSoljsonFiles() : [];
    const total = 3 + files.length;
    let done = 0;
    let logged = 0;
    const step = () => {
      done++;
      if (done < total && Date.now() - logged >= 1000) {
        logged = Date.now();
        this.logger.info(`compilers: ${done}/${total} ready`);
      }
    };
    this.logger.info(
      `compilers: discovering in the background (3 compiler lists, ${files.length} installed solc-js versions); verification requests wait for it`,
    );
    logged = Date.now();
    await this.refresh(step);
    if (files.length > 0 && !this.closed) {
      this.installed = await discoverInstalledSolcJs({
        compilersDir: this.cfg.compilersDir,
        solcjsList: this.lists.solcjs,
        probe: (p) => this.pool.version(p),
        logger: this.logger,
        files,
        onEach: (found) => {
          if (found) {
            this.installed.push(found);
            this.rebuild();
          }
          step();
        },
      });
      this.rebuild();
    }
    if (this.cfg.listRefreshMs > 0 && !this.closed) {
      this.timer = setInterval(() => void this.refresh(), this.cfg.listRefreshMs);
      this.timer.unref();
    }
    this.logger.info(
      { solidity: this.solidity.length, vyper: this.vyper.length, ms: Date.now() - t0 },
      `compilers: ready, ${this.solidity.length} Solidity and ${this.vyper.length} Vyper versions (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
    );
  }

  /** Fetches the three lists again; a list that cannot be fetched keeps its last good copy. */
  async refresh(onEach?: () => void): Promise<void> {
    const fetchOne = async (name: keyof Lists, url: string) => {
      try {
        this.lists[name] = await fetchCompilerList(url, this.cfg.fetch);
      } catch (e) {
        this.logger.warn(
          { url, err: e instanceof Error ? e.message : String(e) },
          "compiler list unavailable; serving the versions in COMPILERS_DIR and installed solc-js",
        );
      }
      onEach?.();
    };
    await Promise.all([
      fetchOne("solc", this.cfg.solcListUrl),
      fetchOne("solcjs", this.cfg.solcjsListUrl),
      fetchOne("vyper", this.cfg.vyperListUrl),
    ]);
    await this.rescan();
  }

  private async rescan(): Promise<void> {
    for (const kind of Object.keys(STORE) as StoreKind[]) {
      this.local[kind] = await scanStore(this.cfg.compilersDir, kind);
    }
    this.rebuild();
  }

  private rebuild(): void {
    const sol = new Map<string, Entry>();
    // `listed`: the version as a list names it (a Vyper prerelease keeps its spelling, `0.4.1b1`); the key alone
    // (a compiler found on disk) gives the hyphenated form.
    const get = (map: Map<string, Entry>, key: string, listed?: CompilerVersion): Entry => {
      let e = map.get(key);
      if (!e) {
        e = { version: listed ?? parseVersion(key)!, key };
        map.set(key, e);
      } else if (listed) e.version = listed;
      return e;
    };
    if (NATIVE_PLATFORM && this.cfg.preferNative) {
      for (const b of this.lists.solc ?? []) get(sol, b.key, b.version).native = { build: b };
      for (const k of this.local.solcNative) get(sol, k).native ??= { build: undefined };
    }
    for (const b of this.lists.solcjs ?? []) get(sol, b.key, b.version).solcJs = { build: b };
    for (const k of this.local.solcJs) get(sol, k).solcJs ??= { build: undefined };
    for (const i of this.installed) get(sol, i.key).npmPath = i.soljsonPath;
    const vy = new Map<string, Entry>();
    for (const b of this.lists.vyper ?? []) get(vy, b.key, b.version).native = { build: b };
    for (const k of this.local.vyperNative) get(vy, k).native ??= { build: undefined };
    const desc = (a: Entry, b: Entry) => compareVersions(b.version, a.version);
    this.solidity = [...sol.values()].sort(desc);
    // Vyper runs natively only; without a native platform there is nothing to offer.
    this.vyper = NATIVE_PLATFORM ? [...vy.values()].sort(desc) : [];
  }

  /** Newest first, with the EVM versions each accepts. */
  listSolidity(): CompilerVersionInfo[] {
    return this.solidity.map((e) => ({
      version: displayVersion(e.version),
      evmVersions: solidityEvmVersions(e.version),
    }));
  }

  listVyper(): CompilerVersionInfo[] {
    return this.vyper.map((e) => ({
      version: displayVersion(e.version),
      evmVersions: vyperEvmVersions(e.version),
    }));
  }

  /** The canonical name of a requested version; InvalidInputError when unknown. */
  resolveVersion(language: CompilerLanguage, version: string): string {
    return displayVersion(this.entryFor(language, version).version);
  }

  /** EVM versions of one compiler version (including "default"); InvalidInputError when the version is unknown. */
  evmVersions(language: CompilerLanguage, version: string): string[] {
    const v = this.entryFor(language, version).version;
    return language === "Solidity" ? solidityEvmVersions(v) : vyperEvmVersions(v);
  }

  private entryFor(language: CompilerLanguage, version: string): Entry {
    return resolveVersion(version, language === "Solidity" ? this.solidity : this.vyper, language);
  }

  async compile(req: CompileRequest): Promise<CompilerOutput> {
    // Not a turn of the event loop once discovery is done: a request starting its compile at once (verify.ts) gets
    // it to the worker before its other first steps (the node's and the database's round trips) take the thread.
    if (!this.discovered) await this.readyPromise;
    try {
      const p = this.prepareRequest(req);
      if ("output" in p) return p.output;
      const { entry, input, text, key } = p;
      const cached = await this.cache.get(key);
      if (cached && !unreadInput(cached)) {
        this.stats.cacheHits++;
        return cached;
      }
      // Identical requests arriving together share one compilation.
      let running = this.inflight.get(key);
      if (!running) {
        running = this.compileUncached(req.language, entry, input, text, key, req.onStarted).finally(() =>
          this.inflight.delete(key),
        );
        this.inflight.set(key, running);
      } else {
        this.stats.cacheHits++;
        req.onStarted?.();
      }
      return await running;
    } finally {
      // Whatever ended the compile early (an answer, an error) ends the caller's wait too; a second call is harmless.
      req.onStarted?.();
    }
  }

  /** The sanitised input, its text and its cache key (or the sanitiser's own answer). */
  private prepareRequest(req: CompileRequest): Prepared {
    if (req.language !== "Solidity" && req.language !== "Vyper") {
      throw new InvalidInputError(`Unknown language: ${String(req.language)}`, { field: "language" });
    }
    const entry = this.entryFor(req.language, req.version);
    const sanitized = sanitizeInput(req.language, req.input);
    let prepared: Prepared;
    if (!sanitized.ok) prepared = { output: sanitized.output };
    else {
      // Key-sorted JSON: the cache key's text and what the compiler reads (source order does not change solc's
      // output: it orders source units by name). Kept in pieces: the key hashes them and the compiler's side
      // joins them (the worker thread, or the pipe), not the event loop (2 ms for 230 KB of sources).
      const text: string[] = [];
      canonicalJsonParts(sanitized.input, text);
      prepared = { entry, input: sanitized.input, text, key: compilationKey(req.language, entry.key, text) };
    }
    return prepared;
  }

  private async compileUncached(
    language: CompilerLanguage,
    entry: Entry,
    input: StandardJsonInput,
    text: readonly string[],
    key: string,
    onStarted: (() => void) | undefined,
  ): Promise<CompilerOutput> {
    // A compiler not made ready in this process yet may need a download: the caller need not wait for that.
    const preparedKey = `${language}\n${entry.key}`;
    if (!this.prepared.has(preparedKey)) onStarted?.();
    const run = await this.prepare(language, entry);
    this.prepared.add(preparedKey);
    // Queued behind other compiles: nothing more to hand over until a slot frees.
    if (this.semaphore.full) onStarted?.();
    const raw = await this.semaphore.run(() => {
      this.stats.compilations++;
      return run(input, text, onStarted);
    });
    const output = guardOutput(input, raw);
    // Not awaited: the disk tier's write (serialise, mkdir, write, rename) is not the caller's business, and
    // identical requests meanwhile share `inflight` (then the memory tier, written synchronously before its promise).
    // A failed compile stays in memory only: it is quick to repeat, and its errors quote the source they point at,
    // so anonymous requests with distinct padded sources would otherwise fill the disk (a 1 MB line: 2 MB a file).
    const failed = (output.errors ?? []).some((e) => e.severity === "error");
    void (failed ? this.memoryCache : this.cache)
      .set(key, output)
      .catch((e) => this.logger.warn({ err: String(e) }, "compilation cache write failed"));
    return output;
  }

  /** Makes the compiler available (downloading it if needed) and returns how to run it. */
  private async prepare(language: CompilerLanguage, entry: Entry): Promise<Runner> {
    const timeoutMs = this.cfg.timeoutMs;
    const memoryLimitMb = this.cfg.memoryLimitMb;
    if (language === "Vyper") {
      if (!entry.native)
        throw new CompilerError("unavailable", `No Vyper build for ${displayVersion(entry.version)}`);
      const binary = await this.fetchFile("vyperNative", entry.key, entry.native.build);
      // Vyper reads its input with Python's json, which keeps key order: it gets the input in the order sent.
      return async (input, _text, onStarted) =>
        parseOutput(
          await runNative({
            binary,
            args: ["--standard-json"],
            stdin: JSON.stringify(input),
            timeoutMs,
            memoryLimitMb,
            ...(onStarted ? { onStarted } : {}),
          }),
        );
    }
    // solc < 0.4.11 has no --standard-json; solc-js translates it for them.
    if (entry.native && atLeast(entry.version, "0.4.11")) {
      let binary: string;
      try {
        binary = await this.fetchFile("solcNative", entry.key, entry.native.build);
      } catch (e) {
        // The same version as solc-js is as good, only slower.
        if (!(entry.npmPath || entry.solcJs)) throw e;
        this.logger.warn({ version: entry.key, err: String(e) }, "native solc unavailable; using solc-js");
        return this.prepareSolcJs(entry);
      }
      const basePath = atLeast(entry.version, "0.6.9");
      return async (_input, text, onStarted) =>
        parseOutput(
          await runNative({
            binary,
            args: ["--standard-json"],
            // Base path is the empty working directory; no --allow-paths, so nothing else is readable.
            argsForCwd: (cwd) => (basePath ? ["--base-path", cwd] : []),
            stdin: text,
            timeoutMs,
            memoryLimitMb,
            ...(onStarted ? { onStarted } : {}),
          }),
        );
    }
    return this.prepareSolcJs(entry);
  }

  private async prepareSolcJs(entry: Entry): Promise<Runner> {
    let soljson = entry.npmPath;
    if (!soljson) {
      if (!entry.solcJs)
        throw new CompilerError("unavailable", `No build of ${displayVersion(entry.version)}`);
      soljson = await this.fetchFile("solcJs", entry.key, entry.solcJs.build);
    }
    const path = soljson;
    return async (_input, text, onStarted) => {
      const job = this.pool.compile(path, text);
      // Posted to a worker, or queued in the pool: the rest happens off this thread.
      onStarted?.();
      return parseJson(await job, "");
    };
  }

  private async fetchFile(kind: StoreKind, key: string, build: ListedBuild | undefined): Promise<string> {
    const dest = storePath(this.cfg.compilersDir, kind, key);
    const source = build ? { url: build.url, checksum: checksumOf(build) } : undefined;
    const path = await this.downloader.ensure(dest, source, STORE[kind].executable);
    if (!this.local[kind].has(key)) {
      this.local[kind].add(key);
    }
    return path;
  }
}

/** Runs one compile of a prepared compiler; `onStarted` as in CompileRequest. */
type Runner = (
  input: StandardJsonInput,
  text: readonly string[],
  onStarted?: () => void,
) => Promise<CompilerOutput>;

/**
 * solc's answer when reading its input threw ("Error parsing input JSON."): the input is JSON the registry
 * serialised, so it is a compiler out of memory (the worker now drops it: solcjs-worker-source.ts), never the
 * compile's result. Caches written before may hold it for inputs that compile; such an entry is compiled again.
 */
function unreadInput(o: CompilerOutput): boolean {
  const errors = o.errors ?? [];
  return (
    o.contracts === undefined &&
    errors.length > 0 &&
    errors.every((e) => e.type === "JSONError" && e.message === "Error parsing input JSON.")
  );
}

function parseJson(text: string, stderr: string): CompilerOutput {
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v === "object" && v !== null && !Array.isArray(v)) {
      compilerText.set(v as CompilerOutput, text);
      return v as CompilerOutput;
    }
  } catch {
    // fall through
  }
  throw new CompilerError("crash", "The compiler did not return standard JSON", {
    details: (stderr || text).slice(-2000).trim() || undefined,
  });
}

function parseOutput(r: { stdout: string; stderr: string }): CompilerOutput {
  return parseJson(r.stdout, r.stderr);
}

export function createCompilers(config: CompilersConfig, logger: Logger): CompilerRegistry {
  return new CompilerRegistry(config, logger);
}
