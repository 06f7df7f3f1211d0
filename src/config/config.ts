import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { LookoutError } from "../errors/base.js";
import { OPTIONS, type OptionSpec } from "./options.js";

export class ConfigError extends LookoutError {
  override name = "ConfigError";
  constructor(shortMessage: string) {
    super({ code: "invalid_config", shortMessage });
  }
}

export type Config = Readonly<{
  port: number;
  host: string;
  databaseUrl: string | undefined;
  readDatabaseUrl: string | undefined;
  dbPoolSize: number;
  dbStatementTimeoutMs: number;
  jobs: boolean;
  jobLeaseMs: number;
  leasePollMs: number;
  dataDir: string;
  rpcUrl: string | undefined;
  chainName: string;
  chainsConfig: string | undefined;
  startBlock: number;
  reorgDepth: number;
  batchSize: number;
  batchTransactions: number;
  fetchConcurrency: number;
  headFirstBlocks: number;
  rpcBatchSize: number;
  rpcTimeoutMs: number;
  rpcRetries: number;
  pollIntervalMs: number;
  traces: "auto" | "off";
  chainType: "auto" | "default" | "optimism";
  logLevel: string;
  anvilBlockTime: number;
  compilersDir: string;
  solcListUrl: string;
  solcjsListUrl: string;
  vyperListUrl: string | undefined;
  compilerConcurrency: number;
  compilerTimeoutMs: number;
  compilerMemoryMb: number;
  verifierIndexWaitMs: number;
  verifierAsyncCommit: boolean;
  verifierLookupMaxCalls: number;
  bodyLimit: number;
  corsOrigin: readonly string[];
  httpHeadersTimeoutMs: number;
  httpBodyTimeoutMs: number;
  httpRequestTimeoutMs: number;
  httpKeepAliveTimeoutMs: number;
  httpMaxRequestsPerSocket: number;
  socketMaxTopics: number;
  socketMaxPerClient: number;
  apiStatementTimeoutMs: number;
  apiRateLimitDisabled: boolean;
  apiRateLimitByIp: number;
  apiRateLimitByIpTimeInterval: string;
  apiRateLimitStaticApiKey: string | undefined;
  apiRateLimitByKey: number;
  apiRateLimitByKeyTimeInterval: string;
  apiRateLimitWhitelistedIps: readonly string[];
  apiRateLimitByWhitelistedIp: number;
  apiRateLimitByWhitelistedIpTimeInterval: string;
  apiRateLimitIsBlockscoutBehindProxy: boolean;
  apiExpensiveConcurrencyPerClient: number;
  apiExpensiveConcurrencyTotal: number;
  ethRpcGasCap: number;
  ethRpcCallTimeoutMs: number;
  ethRpcConcurrencyPerClient: number;
  ipfsGatewayUrl: string;
  arweaveGatewayUrl: string;
  metadataAllowedHosts: readonly string[];
  beaconNodeUrl: string | undefined;
  coinBalanceHistoryDays: number;
  healthMaxLagBlocks: number;
  publicTagsFile: string | undefined;
  graphqlEnabled: boolean;
  graphiqlEnabled: boolean;
  graphqlMaxComplexity: number;
  graphqlTokenLimit: number;
  graphqlMaxDepth: number;
  graphqlMaxPageSize: number;
  graphqlStatementTimeoutMs: number;
  graphqlDefaultTransactionHash: string | undefined;
}>;

function parseValue(spec: OptionSpec, raw: string, source: string): unknown {
  const where = `${source} (${spec.description.replace(/\.$/, "")})`;
  switch (spec.kind) {
    case "int": {
      if (!/^\d+$/.test(raw.trim()))
        throw new ConfigError(`${where}: expected a whole number, got "${raw}".`);
      const n = Number(raw.trim());
      if (
        !Number.isSafeInteger(n) ||
        (spec.min !== undefined && n < spec.min) ||
        (spec.max !== undefined && n > spec.max)
      )
        throw new ConfigError(
          `${where}: expected a whole number from ${spec.min ?? 0} to ${spec.max ?? Number.MAX_SAFE_INTEGER}, got "${raw}".`,
        );
      return n;
    }
    case "url": {
      let u: URL;
      try {
        u = new URL(raw);
      } catch {
        throw new ConfigError(`${where}: expected a URL (${spec.protocols?.join(" ") ?? ""}), got "${raw}".`);
      }
      if (spec.protocols && !spec.protocols.includes(u.protocol))
        throw new ConfigError(`${where}: expected a ${spec.protocols.join(" or ")} URL, got "${raw}".`);
      if (u.protocol !== "file:" && !u.hostname)
        throw new ConfigError(`${where}: the URL has no host: "${raw}".`);
      return raw;
    }
    case "path":
      if (raw.trim() === "") throw new ConfigError(`${where}: expected a path, got an empty value.`);
      return resolve(raw);
    case "bool":
      if (!["true", "false", "1", "0"].includes(raw))
        throw new ConfigError(`${where}: expected true or false.`);
      return raw === "true" || raw === "1";
    case "list":
      return raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    case "enum":
      if (!spec.values?.includes(raw))
        throw new ConfigError(`${where}: expected one of ${spec.values?.join(", ")}, got "${raw}".`);
      return raw;
    default:
      return raw;
  }
}

/**
 * Builds the one typed, frozen Config from environment variables and command-line flags (flags win).
 * Throws ConfigError naming the variable and what it expected.
 */
export function loadConfig(env: NodeJS.ProcessEnv, flags: Record<string, string | undefined> = {}): Config {
  const out: Record<string, unknown> = {};
  for (const spec of OPTIONS as readonly OptionSpec[]) {
    const fromFlag = flags[spec.flag];
    const fromEnv = env[spec.env];
    let raw: string | undefined;
    let source: string;
    if (fromFlag !== undefined) {
      raw = fromFlag;
      source = `--${spec.flag}`;
    } else if (fromEnv !== undefined && fromEnv !== "") {
      raw = fromEnv;
      source = spec.env;
    } else {
      raw = spec.default;
      source = `${spec.env} (default)`;
    }
    out[spec.key] = raw === undefined ? undefined : parseValue(spec, raw, source);
  }
  out.compilersDir ??= resolve(out.dataDir as string, "compilers");
  out.compilerConcurrency ??= availableParallelism();
  return Object.freeze(out) as unknown as Config;
}
