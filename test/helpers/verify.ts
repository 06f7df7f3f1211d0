import type { Hex } from "viem";
import { type App, buildApp } from "../../src/app/http-app.js";
import { createRpc } from "../../src/chain/rpc.js";
import { type ChainConfig, withIndexedChain } from "../../src/config/chains.js";
import type { Db } from "../../src/db/db.js";
import type { IndexerExtension } from "../../src/indexer/pipeline/extension.js";
import type { Indexer } from "../../src/indexer/pipeline/runtime.js";
import { automaticVerificationExtension } from "../../src/indexer/stages/auto-verify/extension.js";
import { countersExtension } from "../../src/indexer/stages/counters/extension.js";
import { packagePath } from "../../src/util/package-root.js";
import type { VerifierApiCompilers } from "../../src/verifier/api.js";
import type { VerifierChain } from "../../src/verifier/chain-clients.js";
import type { CompilerRegistry } from "../../src/verifier/compilers/index.js";
import { verify } from "../../src/verifier/service/index.js";
import type { CreationLookupOptions, VerifierCompilers } from "../../src/verifier/service/types.js";
import { createVerifiedContractLookup } from "../../src/verifier/store/index.js";
import { rpc } from "./activity.js";
import { startTestChain, type TestChain } from "./anvil.js";
import { offlineCompilers } from "./compilers.js";
import { createTestDb, type TestDb } from "./db.js";
import { createTestIndexer, indexToHead } from "./indexer.js";

/** Offline compiler registry on the npm-installed solc-js versions (list URLs answer nothing). */
export function offlineVerifierCompilers(): Promise<CompilerRegistry> {
  return offlineCompilers({
    dir: packagePath("node_modules/.cache/lookout-test-verify-compilers"),
    concurrency: 2,
  });
}

export type VerifierEnv = {
  chain: TestChain;
  /** A second anvil the verifier knows but does not index (runtime-only verification there). */
  other: TestChain | null;
  /** The second anvil's chain configuration (as CHAINS_CONFIG gives it), when there is one. */
  others: ChainConfig[];
  db: TestDb;
  indexer: Indexer;
  app: App;
  compilers: CompilerRegistry;
  /** Sends a creation transaction and returns the new contract's address. */
  deploy(data: Hex, on?: TestChain): Promise<Hex>;
  /** Indexes the indexed chain up to its head. */
  sync(): Promise<void>;
  post(url: string, body: unknown): Promise<{ statusCode: number; body: any }>;
  stop(): Promise<void>;
};

/**
 * The HTTP app with the verify routes over `chain` (indexed) and `others`, on the given compilers, with address
 * objects reading our verified-contract store.
 */
export async function buildVerifierApp(
  db: Db,
  chain: TestChain,
  compilers: VerifierApiCompilers & VerifierCompilers,
  o: { others?: ChainConfig[]; bodyLimit?: number; creationLookup?: CreationLookupOptions } = {},
): Promise<App> {
  const configs = withIndexedChain(o.others ?? [], {
    id: String(chain.anvil.chainId),
    name: "Local",
    rpcUrl: chain.anvil.url,
  });
  const chains = new Map<string, VerifierChain>(
    configs.map((c) => [
      c.id,
      { config: c, rpc: createRpc({ url: c.rpcUrl, batchSize: 10, timeoutMs: 10_000, retries: 2 }) },
    ]),
  );
  return buildApp({
    db,
    config: { bodyLimit: o.bodyLimit ?? 16 * 1024 * 1024 },
    logger: false,
    explorer: { verified: createVerifiedContractLookup(db) },
    verifier: {
      db,
      chains,
      compilers,
      verify: (req) =>
        verify(
          { chains, compilers, db, ...(o.creationLookup ? { creationLookup: o.creationLookup } : {}) },
          req,
        ),
    },
  });
}

/** anvil (indexed) + optional second anvil + database + indexer + app with the verify routes. */
export async function startVerifierEnv(
  o: {
    hardfork?: string;
    secondChain?: boolean;
    compilers?: CompilerRegistry;
    creationLookup?: CreationLookupOptions;
    /** Indexer parts beyond the defaults, made once the database exists (live updates). */
    extensions?: (db: TestDb) => IndexerExtension[];
  } = {},
): Promise<VerifierEnv> {
  const chain = await startTestChain(o.hardfork ? { hardfork: o.hardfork } : {});
  const other = o.secondChain ? await startTestChain({ chainId: 31338 }) : null;
  const db = await createTestDb();
  const indexer = await createTestIndexer(db.db, chain.anvil.url, {
    // The per-address counters too: the contracts list shows each contract's transactions count.
    extensions: [automaticVerificationExtension(), countersExtension(), ...(o.extensions?.(db) ?? [])],
  });
  const compilers = o.compilers ?? (await offlineVerifierCompilers());
  const others: ChainConfig[] = other
    ? [
        {
          id: "31338",
          name: "Other",
          rpcUrl: other.anvil.url,
          isTestnet: true,
          iconUrl: null,
          explorerUrl: null,
          indexed: false,
        },
      ]
    : [];
  const app = await buildVerifierApp(db.db, chain, compilers, {
    others,
    ...(o.creationLookup ? { creationLookup: o.creationLookup } : {}),
  });
  return {
    chain,
    other,
    others,
    db,
    indexer,
    app,
    compilers,
    async deploy(data, on = chain) {
      const hash = await rpc<Hex>(on.anvil.url, "eth_sendTransaction", [
        { from: on.accounts[0]!.address, data, gas: "0x1c9c380" },
      ]);
      let receipt: { contractAddress: Hex; status: Hex } | null = null;
      for (let i = 0; i < 100 && !receipt; i++) {
        receipt = await rpc(on.anvil.url, "eth_getTransactionReceipt", [hash]);
        if (!receipt) await new Promise((r) => setTimeout(r, 20));
      }
      if (receipt?.status !== "0x1") throw new Error(`deployment ${hash} reverted or was not mined`);
      return receipt.contractAddress;
    },
    sync: () => indexToHead(indexer, db.db, chain.anvil.url),
    async post(url, body) {
      const r = await app.inject({ method: "POST", url, payload: body as object });
      return { statusCode: r.statusCode, body: r.json() };
    },
    async stop() {
      await app.close();
      if (!o.compilers) await compilers.close();
      await db.drop();
      await chain.stop();
      await other?.stop();
    },
  };
}
