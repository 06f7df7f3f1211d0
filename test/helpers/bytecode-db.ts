import { type App, buildApp } from "../../src/app/http-app.js";
import type { VerifierApiCompilers } from "../../src/verifier/api.js";
import type { VerifierChain } from "../../src/verifier/chain-clients.js";
import type { CompilerRegistry } from "../../src/verifier/compilers/index.js";
import { type VerifierCompilers, verify } from "../../src/verifier/service/index.js";
import { createVerifiedContractLookup } from "../../src/verifier/store/index.js";
import { type ApisEnv, startApisEnv } from "./verification-apis.js";

type ListingCompilers = VerifierCompilers & Pick<VerifierApiCompilers, "listSolidity" | "listVyper">;

export type BytecodeDbEnv = ApisEnv & {
  /** One app with every API: explorer, /api/v1, eth-bytecode-db v2, Etherscan /api and /sourcify. */
  all: App;
  /** JSON-RPC methods the verify service sent to the nodes, in order (cleared by the tests). */
  rpcCalls: string[];
  send(method: "GET" | "POST", url: string, body?: unknown): Promise<{ statusCode: number; body: any }>;
};

/** The verification-APIs environment plus one app serving everything, whose verifier counts its RPC calls. */
export async function startBytecodeDbEnv(
  o: { compilers?: (registry: CompilerRegistry) => ListingCompilers } = {},
): Promise<BytecodeDbEnv> {
  const env = await startApisEnv(o.compilers ? { compilers: o.compilers } : {});
  const compilers: ListingCompilers = o.compilers ? o.compilers(env.compilers) : env.compilers;
  const rpcCalls: string[] = [];
  const chains = new Map<string, VerifierChain>(
    [...env.chains].map(([id, c]) => [
      id,
      {
        config: c.config,
        rpc: {
          ...c.rpc,
          request: <T>(method: string, params: unknown[]) => {
            rpcCalls.push(method);
            return c.rpc.request<T>(method, params);
          },
        },
      },
    ]),
  );
  const db = env.db.db;
  const all = await buildApp({
    db,
    config: { bodyLimit: 16 * 1024 * 1024 },
    logger: false,
    explorer: { verified: createVerifiedContractLookup(db) },
    verifier: {
      db,
      chains,
      compilers,
      jobs: env.jobs,
      verify: (req) => verify({ chains, compilers, db }, req),
    },
  });
  return {
    ...env,
    all,
    rpcCalls,
    async send(method, url, body) {
      const r = await all.inject({ method, url, ...(body === undefined ? {} : { payload: body as object }) });
      return { statusCode: r.statusCode, body: r.json() };
    },
    async stop() {
      await all.close();
      await env.stop();
    },
  };
}
