#!/usr/bin/env node
import { parseArgs } from "node:util";
import { indexedChainId } from "../chain-store/checkpoint.js";
import { loadChainsConfig } from "../config/chains.js";
import { type Config, ConfigError, loadConfig } from "../config/config.js";
import { OPTIONS } from "../config/options.js";
import { migrate } from "../db/migrate.js";
import { openDb } from "../db/open.js";
import { LookoutError } from "../errors/base.js";
import { createLogger, isTerminal } from "../util/logger.js";
import { shutdownOnSignals } from "../util/shutdown.js";
import { planChains } from "./roles/chains.js";
import { type Mode, startService } from "./service.js";

type Command = {
  summary: string;
  /** Which settings matter for this command (help text only; all are accepted). */
  uses: (key: string) => boolean;
  run(config: Config, switches: Switches): Promise<number>;
};

/** Boolean switches beside the settings table: `--migrate`, `--reset`, `--no-jobs`. */
type Switches = { migrate?: boolean; reset?: boolean };

const SWITCHES = {
  migrate: "Apply database migrations first (`serve` and `work` only check the schema otherwise).",
  reset:
    "Start afresh: `start` without RPC_URL launches a new local chain (forgetting the saved one); allows replacing the index of another chain held by this database (it is wiped).",
  "no-jobs": "Run no verification jobs in this process (same as JOBS=false); submissions are still queued.",
} as const;

const allKeys = () => true;

const COMMANDS: Record<string, Command> = {
  start: {
    summary:
      "Index the chain and serve the HTTP API in one process (launches a local anvil when RPC_URL is unset).",
    uses: allKeys,
    run: (c, s) => runService(c, { http: true, indexer: true, role: "start", ...s }),
  },
  serve: {
    summary:
      "Serve the HTTP API (reads what another process indexed; runs verification jobs unless --no-jobs). Checks the schema, migrates only with --migrate.",
    uses: (k) =>
      ![
        "startBlock",
        "reorgDepth",
        "batchSize",
        "fetchConcurrency",
        "headFirstBlocks",
        "pollIntervalMs",
        "anvilBlockTime",
        "chainType",
      ].includes(k),
    run: (c, s) => runService(c, { http: true, indexer: false, role: "serve", ...s }),
  },
  work: {
    summary:
      "Run verification jobs and token properties/metadata fetching, no HTTP API (/health and /metrics on PORT). Checks the schema, migrates only with --migrate.",
    uses: (k) =>
      ![
        "startBlock",
        "reorgDepth",
        "batchSize",
        "fetchConcurrency",
        "headFirstBlocks",
        "anvilBlockTime",
        "jobs",
        "chainType",
      ].includes(k),
    run: (c, s) => runService(c, { http: false, indexer: false, role: "work", ...s }),
  },
  index: {
    summary:
      "Index the chain only (RPC_URL required; /health and /metrics on PORT). Several may run: one indexes, the others stand by and take over.",
    uses: (k) => !["bodyLimit", "jobs", "jobLeaseMs"].includes(k),
    run: (c, s) => {
      if (!c.rpcUrl)
        throw new ConfigError(
          "RPC_URL: `lookout index` needs the URL of a chain (use `lookout start` for a local one).",
        );
      return runService(c, { http: false, indexer: true, role: "index", ...s });
    },
  },
  demo: {
    summary:
      "Like start, on a local anvil, plus sample token contracts (ERC-721, ERC-1155, ERC-404, ERC-20) and activity.",
    uses: allKeys,
    run: (c) => import("./demo/command.js").then((m) => m.runDemoCommand(c)),
  },
  migrate: {
    summary: "Apply the database migrations and exit.",
    uses: (k) => ["databaseUrl", "dataDir", "logLevel", "chainsConfig"].includes(k),
    async run(c) {
      const db = await openDb(c);
      try {
        const r = await migrate(db);
        process.stdout.write(
          r.applied.length
            ? `Applied ${r.applied.length} migration(s): ${r.applied.join(", ")}\n`
            : "Database is up to date.\n",
        );
        // The schemas of CHAINS_CONFIG's further indexed chains (roles/chains.ts).
        const publicChainId = await indexedChainId(db);
        const { further } = planChains(
          c,
          loadChainsConfig(c.chainsConfig),
          publicChainId === null ? null : String(publicChainId),
        );
        for (const chain of further) {
          const m = await migrate(db.inSchema!(chain.schema), undefined, { schema: chain.schema });
          if (m.applied.length)
            process.stdout.write(
              `Chain ${chain.id}: applied ${m.applied.length} migration(s) in ${chain.schema}\n`,
            );
        }
      } finally {
        await db.close();
      }
      return 0;
    },
  },
};

function help(command?: string): string {
  if (!command || !COMMANDS[command]) {
    return [
      "Usage: lookout <command> [options]",
      "",
      "Commands:",
      ...Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(9)} ${c.summary}`),
      "",
      "Run `lookout <command> --help` for its options. Every option can also be set by its environment variable.",
    ].join("\n");
  }
  const c = COMMANDS[command]!;
  return [
    `Usage: lookout ${command} [options]`,
    "",
    c.summary,
    "",
    "Options (environment variable in brackets):",
    ...OPTIONS.filter((o) => c.uses(o.key)).map(
      (o) =>
        `  --${o.flag.padEnd(24)} [${o.env}] ${o.description}${"default" in o && o.default !== "" ? ` Default: ${o.default}.` : ""}`,
    ),
    ...(command === "migrate" || command === "demo"
      ? []
      : Object.entries(SWITCHES).map(([k, d]) => `  --${k.padEnd(24)} ${d}`)),
    "  --help                     Show this help.",
  ].join("\n");
}

async function runService(config: Config, mode: Mode): Promise<number> {
  const logger = createLogger(config.logLevel);
  // Listening from the start: a signal during start-up stops it (bounded) and exits 0.
  const signals = shutdownOnSignals(logger);
  const starting = startService(config, mode, logger);
  const first = await Promise.race([starting, signals.received.then(() => null)]);
  if (!first) return signals.finish(() => starting.then((s) => s.stop()));
  const service = first;
  return Promise.race([
    signals.received.then(() => signals.finish(() => service.stop())),
    service.done.then(
      () => new Promise<number>(() => {}),
      async () => {
        await service.stop();
        return 1;
      },
    ),
  ]);
}

/** Why a command failed: plain on a terminal; one JSON record (as the log lines before it) for a file or collector. */
function reportFailure(message: string, code?: string): void {
  if (isTerminal()) process.stderr.write(`lookout: ${message}\n`);
  else
    process.stderr.write(
      `${JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, ...(code ? { code } : {}), msg: message })}\n`,
    );
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(`${help(rest[0])}\n`);
    return command ? 0 : 1;
  }
  const cmd = COMMANDS[command];
  if (!cmd) {
    process.stderr.write(`lookout: unknown command "${command}".\n\n${help()}\n`);
    return 2;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: {
        help: { type: "boolean", short: "h" },
        ...Object.fromEntries(OPTIONS.map((o) => [o.flag, { type: "string" as const }])),
        ...Object.fromEntries(Object.keys(SWITCHES).map((k) => [k, { type: "boolean" as const }])),
      },
      allowPositionals: false,
      strict: true,
    });
  } catch (e) {
    process.stderr.write(`lookout ${command}: ${(e as Error).message}\n\n${help(command)}\n`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(`${help(command)}\n`);
    return 0;
  }
  try {
    const flags: Record<string, string> = Object.fromEntries(
      Object.entries(parsed.values)
        .filter(([k]) => k !== "help" && !(k in SWITCHES))
        .map(([k, v]) => [k, String(v)]),
    );
    if (parsed.values["no-jobs"]) flags.jobs = "false";
    const config = loadConfig(process.env, flags);
    const switches: Switches = {
      ...(parsed.values.migrate ? { migrate: true } : {}),
      ...(parsed.values.reset ? { reset: true } : {}),
    };
    return await cmd.run(config, switches);
  } catch (e) {
    if (e instanceof ConfigError) {
      reportFailure(`invalid configuration: ${e.shortMessage}`);
      return 2;
    }
    if (e instanceof LookoutError) {
      reportFailure(e.message, e.code);
      return 1;
    }
    reportFailure((e as Error)?.stack ?? String(e));
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // Open handles (timers, sockets) must not keep a finished command alive.
  setTimeout(() => process.exit(code), 200).unref();
});
