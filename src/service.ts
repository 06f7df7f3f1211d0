import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Anvil, startAnvil } from "./chain/anvil.js";
import { detectCapabilities } from "./chain/capabilities.js";
import { createRpc, type Rpc, withRetry } from "./chain/rpc.js";
import { loadChainsConfig, withIndexedChain } from "./config/chains.js";
import type { Config } from "./config/config.js";
import type { Db } from "./db/db.js";
import { migrate } from "./db/migrate.js";
import { openDb } from "./db/open.js";
import { LookoutError } from "./errors/base.js";
import { loadPublicTags } from "./explorer/address/tags.js";
import { type App, buildApp } from "./http/app.js";
import { closeApp } from "./http/timeouts.js";
import { defaultExtensions } from "./indexer/extensions.js";
import { reportProgress } from "./indexer/progress.js";
import { FatalIndexerError, Indexer } from "./indexer/runtime.js";
import type { Logger } from "./util/logger.js";
import { INDEXER_STOP_WAIT_MS, within } from "./util/shutdown.js";
import { describeDatabase, startupLine } from "./util/startup-line.js";
import { createChainClients, type VerifierChain } from "./verifier/chain-clients.js";
import { type CompilerRegistry, createCompilers } from "./verifier/compilers/index.js";
import { createJobRunner, type JobRunner } from "./verifier/jobs/index.js";
import { verify } from "./verifier/service/index.js";
import { createVerifiedContractLookup } from "./verifier/store/index.js";

export type Mode = { http: boolean; indexer: boolean };

export type Service = {
  app: App | null;
  indexer: Indexer | null;
  anvil: Anvil | null;
  db: Db;
  rpc: Rpc | null;
  compilers: CompilerRegistry | null;
  chains: Map<string, VerifierChain>;
  /** Resolves when the indexer stops by itself (a fatal error) — never for a healthy service. */
  done: Promise<void>;
  stop(): Promise<void>;
};

function printLocalChain(anvil: Anvil, out: NodeJS.WriteStream = process.stdout) {
  const lines = [
    "",
    `Local chain (anvil) at ${anvil.url}, chain id ${anvil.chainId}. Funded test accounts (10000 ETH each):`,
    ...anvil.accounts.map((a, i) => `  (${i}) ${a.address}  private key ${a.privateKey}`),
    "Deploy to it, e.g.: forge create --rpc-url " +
      anvil.url +
      " --private-key " +
      anvil.accounts[0]!.privateKey +
      " ...",
    "",
  ];
  out.write(lines.join("\n") + "\n");
}

/**
 * Wires config → database → chain → indexer → HTTP, in that order, and returns an ordered shutdown:
 * stop accepting requests, let the batch in flight commit (or roll back), close the database, stop anvil.
 */
export async function startService(config: Config, mode: Mode, logger: Logger): Promise<Service> {
  const cleanups: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const c of cleanups.reverse())
      await c().catch((e) => logger.warn({ err: e }, "Shutdown step failed"));
    cleanups.length = 0;
  };
  try {
    // Configuration files are validated before anything starts.
    const configuredChains = loadChainsConfig(config.chainsConfig);
    if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
    const db = await openDb(config);
    cleanups.push(() => db.close());
    const m = await migrate(db);
    if (m.applied.length) logger.info({ applied: m.applied }, "Applied database migrations");

    let anvil: Anvil | null = null;
    let rpcUrl = config.rpcUrl;
    if (!rpcUrl && mode.indexer) {
      anvil = await startAnvil({ blockTime: config.anvilBlockTime || undefined, port: undefined });
      cleanups.push(() => anvil!.stop());
      rpcUrl = anvil.url;
      printLocalChain(anvil);
    }
    const rpc = rpcUrl
      ? createRpc({
          url: rpcUrl,
          batchSize: config.rpcBatchSize,
          timeoutMs: config.rpcTimeoutMs,
          retries: config.rpcRetries,
          concurrency: config.fetchConcurrency,
        })
      : null;

    let indexer: Indexer | null = null;
    const controller = new AbortController();
    let done: Promise<void> = new Promise(() => {});
    if (mode.indexer && rpc) {
      await withRetry(() => rpc.request("eth_chainId", []), { attempts: 3 }).catch((cause) => {
        throw new LookoutError({
          code: "rpc_unreachable",
          shortMessage: `Cannot reach the chain at RPC_URL (${rpc.url}).`,
          cause,
        });
      });
      const caps = await detectCapabilities(rpc, { traces: config.traces }).catch((cause) => {
        throw new LookoutError({
          code: "rpc_unreachable",
          shortMessage: `Cannot reach the chain at RPC_URL (${rpc.url}).`,
          cause,
        });
      });
      indexer = new Indexer({
        db,
        rpc,
        caps,
        logger: logger.child({ part: "indexer" }),
        extensions: defaultExtensions({ config, db, logger }),
        options: {
          startBlock: config.startBlock,
          reorgDepth: config.reorgDepth,
          batchSize: config.batchSize,
          fetchConcurrency: config.fetchConcurrency,
          pollIntervalMs: config.pollIntervalMs,
          // A local anvil is a new chain on every start; its old index is not worth keeping.
          resetOnNewChain: anvil !== null,
        },
      });
      await indexer.init(controller.signal).catch((cause) => {
        if (cause instanceof LookoutError) throw cause;
        throw new LookoutError({
          code: "rpc_unreachable",
          shortMessage: `Cannot reach the chain at RPC_URL (${rpc.url}).`,
          cause,
        });
      });
      const stopProgress = reportProgress(indexer.progress, logger);
      const idx = indexer;
      const running = idx.run(controller.signal);
      done = running.then(
        () => {},
        (e) => {
          logger.fatal({ err: e }, e instanceof FatalIndexerError ? e.shortMessage : "Indexer stopped");
          throw e;
        },
      );
      cleanups.push(async () => {
        controller.abort();
        stopProgress();
        // Wait for the batch in flight: its transaction commits or rolls back before the database closes. A fetch
        // from a node that stopped answering holds nothing written: not waited for beyond a few seconds.
        await within(running, INDEXER_STOP_WAIT_MS);
        await idx.stopExtensions();
      });
    }

    let compilers: CompilerRegistry | null = null;
    let jobs: JobRunner | null = null;
    let chains = new Map<string, VerifierChain>();
    if (mode.http) {
      // The indexed chain is always a verifier chain; `serve` alone learns its id from the index.
      const indexedId = indexer?.chainId ?? (await readIndexedChainId(db));
      const chainList = withIndexedChain(
        configuredChains,
        indexedId !== null && rpcUrl ? { id: String(indexedId), name: config.chainName, rpcUrl } : null,
      );
      chains = createChainClients(chainList, {
        batchSize: config.rpcBatchSize,
        timeoutMs: config.rpcTimeoutMs,
        retries: config.rpcRetries,
        indexedRpc: rpc,
      });
      compilers = createCompilers(
        {
          compilersDir: config.compilersDir,
          solcListUrl: config.solcListUrl,
          solcjsListUrl: config.solcjsListUrl,
          ...(config.vyperListUrl ? { vyperListUrl: config.vyperListUrl } : {}),
          concurrency: config.compilerConcurrency,
          timeoutMs: config.compilerTimeoutMs,
          memoryLimitMb: config.compilerMemoryMb,
        },
        logger.child({ part: "compilers" }),
      );
      const c = compilers;
      cleanups.push(() => c.close());
      await c.ready();
      // Etherscan/Sourcify verification jobs: stopped before the compilers close; a job cut short is re-queued.
      const chainMap = chains;
      jobs = createJobRunner({
        db,
        verify: (req) => verify({ chains: chainMap, compilers: c, db }, req),
        concurrency: Math.max(1, Math.min(4, config.compilerConcurrency)),
        logger: logger.child({ part: "verification-jobs" }),
      });
      const j = jobs;
      await j.start();
      cleanups.push(() => j.stop());
    }

    let app: App | null = null;
    if (mode.http) {
      app = await buildApp({
        db,
        config,
        logger: logger.child({ part: "http" }),
        health: {
          ...(rpc ? { rpcHead: async () => Number(await rpc.request<string>("eth_blockNumber", [])) } : {}),
          ...(indexer ? { progress: indexer.progress, chainId: () => indexer!.chainId } : {}),
        },
        explorer: {
          tags: loadPublicTags(config.publicTagsFile),
          gateways: { ipfs: config.ipfsGatewayUrl, arweave: config.arweaveGatewayUrl },
          // is_verified and the contract name of address objects come from our verified-contract store.
          verified: createVerifiedContractLookup(db),
        },
        verifier: {
          chains: [...chains.values()].map((c) => c.config),
          compilers: compilers!,
          verify: (req) => verify({ chains, compilers: compilers!, db }, req),
        },
        verificationApis: { db, chains, compilers: compilers!, jobs: jobs! },
      });
      await app.listen({ port: config.port, host: config.host });
      const a = app;
      cleanups.push(() => closeApp(a));
      const url = `http://${config.host}:${(a.server.address() as { port: number }).port}`;
      logger.info(
        { url, docs: `${url}/api/docs`, database: describeDatabase(config), rpc: rpcUrl ?? null },
        startupLine({ database: describeDatabase(config), rpc: rpcUrl ?? null, http: url }),
      );
    }
    return { app, indexer, anvil, db, rpc, compilers, chains, done, stop: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

async function readIndexedChainId(db: Db): Promise<number | null> {
  const [row] = await db.query<{ chain_id: number }>("select chain_id from indexer_state where id = 1");
  return row?.chain_id ?? null;
}

export const dataPath = (config: Config, ...parts: string[]) => join(config.dataDir, ...parts);
