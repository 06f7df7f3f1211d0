import { type Anvil, startAnvil } from "../../chain/anvil.js";
import { createRpc, type Rpc } from "../../chain/rpc.js";
import type { Config } from "../../config/config.js";
import type { Db } from "../../db/db.js";
import { LookoutError } from "../../errors/base.js";
import type { Metrics } from "../../metrics/registry.js";

export type ChainPart = { rpc: Rpc | null; anvil: Anvil | null; stop(): Promise<void> };

function printLocalChain(anvil: Anvil, out: NodeJS.WriteStream = process.stdout) {
  const lines = [
    "",
    `Local chain (anvil) at ${anvil.url}, chain id ${anvil.chainId}. Funded test accounts (10000 ETH each):`,
    ...anvil.accounts.map((a, i) => `  (${i}) ${a.address}  private key ${a.privateKey}`),
    `Deploy to it, e.g.: forge create --rpc-url ${anvil.url} --private-key ${anvil.accounts[0]!.privateKey} ...`,
    "",
  ];
  out.write(`${lines.join("\n")}\n`);
}

/**
 * The node of the indexed chain: RPC_URL, or (for `start` without one) a local anvil launched here. A database
 * that holds the index of a chain other than an earlier local anvil is never replaced by a new local chain
 * unless `reset` (`--reset`) says so.
 */
export async function startChain(
  config: Config,
  o: { launchAnvil: boolean; reset: boolean; db: Db; metrics: Metrics },
): Promise<ChainPart> {
  let anvil: Anvil | null = null;
  let url = config.rpcUrl;
  if (!url && o.launchAnvil) {
    if (!o.reset) await refuseToReplace(o.db);
    anvil = await startAnvil({ blockTime: config.anvilBlockTime || undefined, port: undefined });
    url = anvil.url;
    printLocalChain(anvil);
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
  return { rpc, anvil, stop: async () => anvil?.stop() };
}

async function refuseToReplace(db: Db): Promise<void> {
  const [s] = await db.query<{ chain_id: number; last_block: number | null; local_chain: boolean }>(
    "select chain_id, last_block, local_chain from indexer_state where id = 1",
  );
  if (!s || s.local_chain) return;
  throw new LookoutError({
    code: "would_wipe_index",
    shortMessage: `This database holds the index of chain ${s.chain_id} (up to block ${s.last_block ?? "-"}), which is not a local chain started by \`lookout start\`. Without RPC_URL, \`start\` would launch a new local chain and replace that index. Set RPC_URL to that chain's node, use another DATABASE_URL/DATA_DIR, or pass --reset to wipe it.`,
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
