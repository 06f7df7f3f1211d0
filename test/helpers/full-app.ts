import { type App, type AppDeps, buildApp } from "../../src/app/http-app.js";
import { createRpc } from "../../src/chain/rpc.js";
import { withIndexedChain } from "../../src/config/chains.js";
import type { VerifierChain } from "../../src/verifier/chain-clients.js";
import type { CompilerRegistry } from "../../src/verifier/compilers/index.js";
import { createJobRunner } from "../../src/verifier/jobs/index.js";
import { verify } from "../../src/verifier/service/index.js";
import { createVerifiedContractLookup } from "../../src/verifier/store/index.js";
import { startTestChain, type TestChain } from "./anvil.js";
import { createTestDb, type TestDb } from "./db.js";
import { offlineVerifierCompilers } from "./verify.js";

export type FullApp = {
  app: App;
  chain: TestChain;
  db: TestDb;
  compilers: CompilerRegistry;
  stop(): Promise<void>;
};

/**
 * The HTTP app with every API (explorer, proxy verifier, Etherscan, Sourcify) over one anvil, a test database and
 * the offline compilers. Verification jobs are queued but not run (no job runner started).
 */
export async function startFullApp(
  config: Partial<AppDeps["config"]> = {},
  extra: Pick<AppDeps, "onRoute" | "health" | "live"> = {},
): Promise<FullApp> {
  const chain = await startTestChain();
  const db = await createTestDb();
  const compilers = await offlineVerifierCompilers();
  const configs = withIndexedChain([], {
    id: String(chain.anvil.chainId),
    name: "Local",
    rpcUrl: chain.anvil.url,
  });
  const chains = new Map<string, VerifierChain>(
    configs.map((c) => [
      c.id,
      { config: c, rpc: createRpc({ url: c.rpcUrl, batchSize: 10, timeoutMs: 10_000, retries: 1 }) },
    ]),
  );
  const run = (req: Parameters<typeof verify>[1]) => verify({ chains, compilers, db: db.db }, req);
  const jobs = createJobRunner({ db: db.db, verify: run });
  const app = await buildApp({
    db: db.db,
    config: { bodyLimit: 64 * 1024, ...config },
    logger: false,
    explorer: { verified: createVerifiedContractLookup(db.db) },
    verifier: { db: db.db, chains, compilers, jobs, verify: run },
    ...extra,
  });
  return {
    app,
    chain,
    db,
    compilers,
    async stop() {
      await app.close();
      await compilers.close();
      await db.drop();
      await chain.stop();
    },
  };
}
