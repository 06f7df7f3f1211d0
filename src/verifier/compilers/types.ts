/** Shared types of compiler management. Compiler input and output are the compilers' own standard JSON. */

export type CompilerLanguage = "Solidity" | "Vyper";

/** A standard JSON input object (`{language, sources, settings, ...}`), as the user sent it. */
export type StandardJsonInput = Record<string, unknown>;

export type StandardJsonError = {
  component?: string;
  severity: "error" | "warning" | "info" | string;
  type?: string;
  message: string;
  formattedMessage?: string;
  errorCode?: string;
  sourceLocation?: { file: string; start?: number; end?: number };
};

/** A standard JSON output object. Compile errors are in `errors` with severity "error", never thrown. */
export type CompilerOutput = {
  errors?: StandardJsonError[];
  sources?: Record<string, unknown>;
  contracts?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
};

export type CompileRequest = {
  language: CompilerLanguage;
  /** e.g. "v0.8.26+commit.8a97fa7a", "0.8.26+commit.8a97fa7a" or "0.8.26+commit.8a97"; resolved against the lists. */
  version: string;
  input: StandardJsonInput;
  /**
   * Called once the compile needs nothing more of the caller's thread: handed to a worker thread or a process,
   * queued behind other compiles, joined to an identical one already running, or answered at once (also when it
   * fails). A caller with other work to start can wait for it, so the compiler does not wait behind that work.
   */
  onStarted?: () => void;
};

export interface Compiler {
  /** Resolves with the compiler's output (compile errors included); rejects with InvalidInputError or CompilerError. */
  compile(req: CompileRequest): Promise<CompilerOutput>;
}

export type CompilerVersionInfo = {
  /** "v0.8.26+commit.8a97fa7a" */
  version: string;
  /** EVM versions the compiler accepts, oldest first, then "default". */
  evmVersions: string[];
};

export type LogFn = (objOrMsg: unknown, msg?: string) => void;
/** pino-compatible subset. */
export type Logger = { info: LogFn; warn: LogFn; error: LogFn; debug: LogFn };

export type CompilersConfig = {
  /** Download cache; also holds the compilation cache under `cache/`. */
  compilersDir: string;
  solcListUrl?: string;
  solcjsListUrl?: string;
  vyperListUrl?: string;
  /** Compilations running at once (native and solc-js together). Default: number of cores. */
  concurrency?: number;
  /** Per compilation. Default 120 s (what Blockscout's explorer allows). */
  timeoutMs?: number;
  /** Per compiler process/worker. Default 4096 MB. */
  memoryLimitMb?: number;
  /** How often the lists are fetched again. Default 1 h; 0 disables the refresh. */
  listRefreshMs?: number;
  /** Use solc-js versions installed as npm packages (`solc`, `solc-X`). Default true. */
  useInstalledSolcJs?: boolean;
  /** Run native builds when the platform has them (linux x64). Default true. */
  preferNative?: boolean;
  /** Download attempts (default 3) and first backoff (default 1000 ms, doubled each retry). */
  downloadAttempts?: number;
  downloadBackoffMs?: number;
  /** soljson modules each solc-js worker keeps loaded. Default 2. */
  solcJsLoadedPerWorker?: number;
  /** Compilation outputs kept in memory. Default 200. */
  memoryCacheEntries?: number;
  /**
   * How long a request waits for compiler discovery (lists, installed solc-js) still running after start before it
   * goes on with what was found so far. Default 60 s.
   */
  discoveryWaitMs?: number;
  /** For tests: replaces global fetch. */
  fetch?: typeof fetch;
};
