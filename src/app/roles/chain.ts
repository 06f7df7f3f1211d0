import { join } from "node:path";
import { type Anvil, startAnvil } from "../../chain/anvil.js";
import {
  type ChainSaver,
  forgetSavedChain,
  readSavedChain,
  type SavedChain,
  saveChainPeriodically,
} from "../../chain/anvil-state.js";
import { createRpc, type Rpc } from "../../chain/rpc.js";
import { indexOrigin } from "../../chain-store/checkpoint.js";
import type { Config } from "../../config/config.js";
import type { Db } from "../../db/db.js";
import { LookoutError } from "../../errors/base.js";
import type { Metrics } from "../../metrics/registry.js";
import { isTerminal, type Logger } from "../../util/logger.js";

export type ChainPart = { rpc: Rpc | null; anvil: Anvil | null; stop(): Promise<void> };

/** How often the local chain's state is saved while blocks come (the most a `kill -9` can lose). */
const SAVE_INTERVAL_MS = 1_000;

/** Where `start` keeps its local chain: beside the embedded database, so one DATA_DIR holds both. */
export const localChainStatePath = (config: Pick<Config, "dataDir">) =>
  join(config.dataDir, "anvil", "state.json");

/**
 * The banner: where the chain is, whether it continues the saved one, and the funded keys. A terminal gets plain
 * lines; anything else one JSON log record (accounts as a field), like every other line.
 */
function announceLocalChain(anvil: Anvil, saved: SavedChain | null, statePath: string, logger: Logger) {
  const kept = saved
    ? `Continuing the local chain saved in ${statePath} (block ${saved.block}); \`lookout start --reset\` starts a new one.`
    : `New local chain; its state is kept in ${statePath}, so a restart continues it (\`--reset\` starts afresh).`;
  const title = `Local chain (anvil) at ${anvil.url}, chain id ${anvil.chainId}.`;
  if (!isTerminal()) {
    logger.info(
      {
        rpc_url: anvil.url,
        chain_id: anvil.chainId,
        state_file: statePath,
        continued_from_block: saved?.block ?? null,
        accounts: anvil.accounts.map((a) => ({ address: a.address, private_key: a.privateKey })),
      },
      `${title} ${kept}`,
    );
    return;
  }
  const lines = [
    "",
    title,
    kept,
    "Funded test accounts (10000 ETH each at the start):",
    ...anvil.accounts.map((a, i) => `  (${i}) ${a.address}  private key ${a.privateKey}`),
    `Deploy to it, e.g.: forge create --rpc-url ${anvil.url} --private-key ${anvil.accounts[0]!.privateKey} ...`,
    "",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

/**
 * The node of the indexed chain: RPC_URL, or (for `start` without one) a local anvil launched here, continuing
 * the chain saved in DATA_DIR (`reset` starts a new one). A database that holds the index of a chain other than
 * an earlier local anvil is never replaced by a local chain unless `reset` (`--reset`) says so.
 */
export async function startChain(
  config: Config,
  o: { launchAnvil: boolean; reset: boolean; db: Db; metrics: Metrics; logger: Logger },
): Promise<ChainPart> {
  let anvil: Anvil | null = null;
  let saver: ChainSaver | null = null;
  let url = config.rpcUrl;
  if (!url && o.launchAnvil) {
    if (!o.reset) await refuseToReplace(o.db);
    const statePath = localChainStatePath(config);
    if (o.reset) forgetSavedChain(statePath);
    const saved = readSavedChain(statePath, o.logger);
    anvil = await startAnvil({
      blockTime: config.anvilBlockTime || undefined,
      port: undefined,
      // CHAIN_TYPE=optimism: the local chain is an OP-stack one (deposits, L1 fees), as the index expects.
      ...(config.chainType === "optimism" ? { network: "optimism" as const } : {}),
      ...(saved ? { loadStatePath: saved.path } : {}),
    }).catch((cause: unknown) => {
      // e.g. a state written by another anvil version: say how to get going again.
      if (!saved) throw cause;
      throw new LookoutError({
        code: "anvil_failed",
        shortMessage: `Could not continue the local chain saved in ${saved.path}.`,
        cause,
        metaMessages: [
          "`lookout start --reset` starts a new local chain (and index); or move that file away.",
        ],
      });
    });
    url = anvil.url;
    saver = saveChainPeriodically({
      url: anvil.url,
      path: statePath,
      intervalMs: SAVE_INTERVAL_MS,
      logger: o.logger.child({ part: "chain" }),
    });
    announceLocalChain(anvil, saved, statePath, o.logger);
  }
  const rpc = url
    ? countErrors(
        createRpc({
          url,
          batchSize: config.rpcBatchSize,
          timeoutMs: config.rpcTimeoutMs,
          retries: config.rpcRetries,
          concurrency: config.fetchConcurrency,
        }),
        o.metrics,
      )
    : null;
  return {
    rpc,
    anvil,
    stop: async () => {
      // The last save before anvil goes: an orderly stop loses nothing.
      await saver?.stop();
      await anvil?.stop();
    },
  };
}

async function refuseToReplace(db: Db): Promise<void> {
  const s = await indexOrigin(db);
  if (!s || s.localChain) return;
  throw new LookoutError({
    code: "would_wipe_index",
    shortMessage: `This database holds the index of chain ${s.chainId} (up to block ${s.lastBlock ?? "-"}), which is not a local chain started by \`lookout start\`. Without RPC_URL, \`start\` would launch a local chain and replace that index. Set RPC_URL to that chain's node, use another DATABASE_URL/DATA_DIR, or pass --reset to wipe it.`,
  });
}

function countErrors(rpc: Rpc, metrics: Metrics): Rpc {
  return {
    ...rpc,
    url: rpc.url,
    client: rpc.client,
    limiter: rpc.limiter,
    request: <T>(method: string, params: unknown[]) =>
      rpc.request<T>(method, params).catch((e: unknown) => {
        metrics.rpcError(method);
        throw e;
      }),
  };
}
