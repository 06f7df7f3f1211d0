import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { ChainConfig } from "../../config/chains.js";
import type { CompilerVersionInfo } from "../../verifier/compilers/index.js";
import { v1ErrorHandler } from "./errors.js";
import { Chain, Compiler, ErrorBody } from "./schemas.js";
import { solidityVerifyRoutes, type VerifyFn } from "./verify-routes.js";
import { vyperVerifyRoutes } from "./vyper-verify-routes.js";

/** What the verifier API needs from the rest of the service. */
export type VerifierHttpDeps = {
  chains: readonly ChainConfig[];
  compilers: {
    listSolidity(): CompilerVersionInfo[];
    listVyper(): CompilerVersionInfo[];
    /** Resolves when compiler discovery is done (bounded), so lists right after start are complete. */
    settled?(): Promise<unknown>;
  };
  /** The verify service (src/verifier/service), bound to chains, compilers and the database. */
  verify?: VerifyFn;
};

/** Chain objects as Blockscout's proxy verifier shows them (ids as strings, configuration order). */
export function chainView(c: ChainConfig) {
  return {
    id: c.id,
    name: c.name,
    // Always a string, as upstream: empty when neither an icon nor an explorer is configured.
    iconUrl:
      c.iconUrl ?? (c.explorerUrl ? new URL("/assets/favicon/logo-icon.png", c.explorerUrl).toString() : ""),
    isTestnet: c.isTestnet,
  };
}

/** The proxy-verifier API (`/api/v1`), with its `{code, message}` error dialect. */
export const apiV1Plugin: FastifyPluginAsync<{ verifier: VerifierHttpDeps }> = async (app, { verifier }) => {
  app.setErrorHandler(v1ErrorHandler);
  app.setNotFoundHandler((_req, reply) => {
    void reply.code(404).send({ code: 5, message: "Not found" });
  });
  const errors = { 400: ErrorBody };
  if (verifier.verify) {
    await app.register(solidityVerifyRoutes, { verify: verifier.verify });
    await app.register(vyperVerifyRoutes, { verify: verifier.verify });
  }

  app.get(
    "/chains",
    {
      schema: {
        tags: ["verifier"],
        response: { 200: Type.Object({ chains: Type.Array(Chain) }), ...errors },
      },
    },
    async () => ({ chains: verifier.chains.map(chainView) }),
  );
  app.get(
    "/solidity/compilers",
    {
      schema: {
        tags: ["verifier"],
        response: { 200: Type.Object({ compilers: Type.Array(Compiler) }), ...errors },
      },
    },
    async () => {
      await verifier.compilers.settled?.();
      return { compilers: verifier.compilers.listSolidity() };
    },
  );
  app.get(
    "/vyper/compilers",
    {
      schema: {
        tags: ["verifier"],
        response: { 200: Type.Object({ compilers: Type.Array(Compiler) }), ...errors },
      },
    },
    async () => {
      await verifier.compilers.settled?.();
      return { compilers: verifier.compilers.listVyper() };
    },
  );
  app.get(
    "/verification/config",
    {
      schema: {
        tags: ["verifier"],
        response: {
          200: Type.Object({
            chains: Type.Array(Chain),
            solidityCompilers: Type.Array(Compiler),
            vyperCompilers: Type.Array(Compiler),
          }),
          ...errors,
        },
      },
    },
    async () => {
      await verifier.compilers.settled?.();
      return {
        chains: verifier.chains.map(chainView),
        solidityCompilers: verifier.compilers.listSolidity(),
        vyperCompilers: verifier.compilers.listVyper(),
      };
    },
  );
};
