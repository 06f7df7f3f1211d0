import { type App, buildApp } from "../../src/app/http-app.js";
import { createRpc } from "../../src/chain/rpc.js";
import { withIndexedChain } from "../../src/config/chains.js";
import { type LiveUpdates, startLiveUpdates } from "../../src/live/index.js";
import { verificationResultOf } from "../../src/live/verification-result.js";
import { createLogger } from "../../src/util/logger.js";
import type { VerifierChain } from "../../src/verifier/chain-clients.js";
import type { CompilerRegistry, CompilerVersionInfo } from "../../src/verifier/compilers/index.js";
import { createJobRunner, type JobRunner } from "../../src/verifier/jobs/index.js";
import { type VerifierCompilers, verify } from "../../src/verifier/service/index.js";
import { createVerifiedContractLookup } from "../../src/verifier/store/index.js";
import { startVerifierEnv, type VerifierEnv } from "./verify.js";

type FormCompilers = VerifierCompilers & {
  listSolidity(): CompilerVersionInfo[];
  listVyper(): CompilerVersionInfo[];
};

export type VerifyFormEnv = VerifierEnv & {
  /** Listening app: explorer API with the verify form, verifier APIs, and the socket. */
  server: App;
  base: string;
  live: LiveUpdates;
  jobs: JobRunner;
};

/**
 * The verifier environment served as the frontend sees it: the app listening with the verify form routes, a job
 * runner reporting outcomes on the live-updates bus, and the socket.
 */
export async function startVerifyFormEnv(
  o: { compilers?: (registry: CompilerRegistry) => FormCompilers } = {},
): Promise<VerifyFormEnv> {
  let live: LiveUpdates | undefined;
  // The socket hears the indexer's batches (smart_contract_was_verified of automatic verifications).
  const env = await startVerifierEnv({
    extensions: (db) => {
      live = startLiveUpdates({
        db: db.db,
        databaseUrl: db.url,
        logger: createLogger("silent"),
        serve: true,
      });
      return [live.extension()];
    },
  });
  try {
    const compilers = o.compilers ? o.compilers(env.compilers) : env.compilers;
    const configs = withIndexedChain([], {
      id: String(env.chain.anvil.chainId),
      name: "Local",
      rpcUrl: env.chain.anvil.url,
    });
    const chains = new Map<string, VerifierChain>(
      configs.map((c) => [
        c.id,
        { config: c, rpc: createRpc({ url: c.rpcUrl, batchSize: 10, timeoutMs: 10_000, retries: 2 }) },
      ]),
    );
    const db = env.db.db;
    const started = live!;
    const hub = started.hub;
    const jobs = createJobRunner({
      db,
      verify: (req) => verify({ chains, compilers, db }, req),
      pollMs: 200,
      onFinished: (job, outcome) =>
        void started.publishVerification(job.address, verificationResultOf(outcome)),
    });
    await jobs.start();
    const server = await buildApp({
      db,
      config: { bodyLimit: 16 * 1024 * 1024 },
      logger: false,
      explorer: { verified: createVerifiedContractLookup(db) },
      verifier: { db, chains, compilers, jobs, verify: (req) => verify({ chains, compilers, db }, req) },
      live: { hub },
    });
    await server.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;
    return {
      ...env,
      server,
      base,
      live: started,
      jobs,
      async stop() {
        await server.close();
        await jobs.stop();
        await started.stop();
        await env.stop();
      },
    };
  } catch (e) {
    await live?.stop();
    await env.stop();
    throw e;
  }
}
