import { type App, buildApp } from "../../src/app/http-app.js";
import { createRpc } from "../../src/chain/rpc.js";
import { withIndexedChain } from "../../src/config/chains.js";
import type { IndexerExtension } from "../../src/indexer/pipeline/extension.js";
import type { VerifierChain } from "../../src/verifier/chain-clients.js";
import type { CompilerRegistry } from "../../src/verifier/compilers/index.js";
import { createJobRunner, type JobRunner } from "../../src/verifier/jobs/index.js";
import {
  type CreationLookupOptions,
  type VerifierCompilers,
  verify,
} from "../../src/verifier/service/index.js";
import { startVerifierEnv, type VerifierEnv } from "./verify.js";

export type ApisEnv = VerifierEnv & {
  /** The app with the Etherscan (`/api`) and Sourcify (`/sourcify`) APIs. */
  apis: App;
  jobs: JobRunner;
  chains: Map<string, VerifierChain>;
};

/** The verifier test environment plus a job runner and an app serving the Etherscan and Sourcify APIs. */
export async function startApisEnv(
  o: {
    compilers?: (registry: CompilerRegistry) => VerifierCompilers;
    secondChain?: boolean;
    creationLookup?: CreationLookupOptions;
    /** Indexer parts beyond the verifier env's defaults. */
    extensions?: () => IndexerExtension[];
  } = {},
): Promise<ApisEnv> {
  const env = await startVerifierEnv({
    ...(o.secondChain ? { secondChain: true } : {}),
    ...(o.extensions ? { extensions: o.extensions } : {}),
    ...(o.creationLookup ? { creationLookup: o.creationLookup } : {}),
  });
  const compilers = o.compilers ? o.compilers(env.compilers) : env.compilers;
  const configs = withIndexedChain(env.others, {
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
  const jobs = createJobRunner({
    db,
    verify: (req) =>
      verify(
        { chains, compilers, db, ...(o.creationLookup ? { creationLookup: o.creationLookup } : {}) },
        req,
      ),
    pollMs: 200,
  });
  await jobs.start();
  const apis = await buildApp({
    db,
    config: { bodyLimit: 16 * 1024 * 1024 },
    logger: false,
    verifier: {
      db,
      chains,
      // The version lists are the registry's; the version check is the (possibly wrapped) compilers'.
      compilers: {
        listSolidity: () => env.compilers.listSolidity(),
        listVyper: () => env.compilers.listVyper(),
        resolveVersion: (language, version) => compilers.resolveVersion(language, version),
        ...(compilers.settled ? { settled: () => compilers.settled!() } : {}),
      },
      jobs,
    },
  });
  return {
    ...env,
    apis,
    jobs,
    chains,
    async stop() {
      await apis.close();
      await jobs.stop();
      await env.stop();
    },
  };
}
