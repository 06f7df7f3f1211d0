import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { type TSchema, Type } from "@sinclair/typebox";
import type { FastifyReply } from "fastify";
import { InvalidInputError } from "../errors/base.js";
import type { ErrorDialect } from "../http/dialects.js";
import { DialectAnswer } from "../http/error-handler.js";
import { dialectScope } from "../http/scope.js";
import { actixError, actixErrorShape, GRPC } from "../verifier-apis/shared/actix-errors.js";
import type { ChainSource, MultichainChain } from "./chains.js";
import { DEFAULT_FAN_OUT, type FanOutLimits } from "./fan-out.js";
import {
  AddressListSchema,
  AggregatedAddressSchema,
  BlockNumberListSchema,
  ChainsSchema,
  ClusterQuickSearchSchema,
  ErrorSchema,
  HashListSchema,
  HealthSchema,
  ListQuerySchema,
  QuickSearchSchema,
  TokenListSchema,
} from "./schema.js";
import {
  type Answer,
  addressAcrossChains,
  clusterQuickSearch,
  listAddresses,
  listBlockNumbers,
  listChains,
  listHashes,
  listTokens,
  type MultichainDeps,
  pageSize,
  quickSearch,
} from "./service.js";
import { chainView } from "./view.js";

/** Where Lookout serves the multichain aggregator's API (its paths, `/api/v1/...`, below this prefix). */
export const MULTICHAIN_PREFIX = "/multichain";

/** The one cluster of the cluster explorer's paths (`/api/v1/clusters/{cluster_id}/...`): every indexed chain. */
export const DEFAULT_CLUSTER_ID = "lookout";

/** The aggregator's errors (actix-prost's `{code, message}`, gRPC codes), for every path under the prefix. */
export const MULTICHAIN_DIALECT: ErrorDialect = {
  name: "multichain-aggregator",
  paths: [MULTICHAIN_PREFIX],
  error: actixErrorShape,
};

/** The header naming the chains an answer lacks (failed or too slow), comma-separated; absent when none. */
export const MISSING_CHAINS_HEADER = "x-multichain-missing-chains";

export type MultichainRoutesOptions = {
  chains: ChainSource;
  limits?: Partial<FanOutLimits>;
  clusterId?: string;
};

const doc = (ok: TSchema) => ({
  tags: ["multichain-aggregator"],
  response: { 200: ok, "4xx": ErrorSchema, "5xx": ErrorSchema },
});

function send<T>(reply: FastifyReply, a: Answer<T>): T {
  if (a.missing.length) reply.header(MISSING_CHAINS_HEADER, a.missing.join(","));
  return a.body;
}

const QuickSearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 1024 })),
  unlimited_per_chain: Type.Optional(Type.String()),
});

/** A boolean query parameter as the aggregator reads one ("true"/"false"; absent: false). */
function flag(v: string | undefined, name: string): boolean {
  if (v === undefined || v === "" || v === "false") return false;
  if (v === "true") return true;
  throw new InvalidInputError(`invalid ${name}: expected true or false`, { field: name });
}

/**
 * Blockscout's multichain aggregator (blockscout-rs `multichain-aggregator`, api_config_http.yaml) over the chains
 * this deployment indexes: each answer is read from every chain's own tables, a bounded number of chains at once,
 * each within a time limit; a chain that fails or is too slow is left out (named in MISSING_CHAINS_HEADER).
 */
export const multichainRoutes: FastifyPluginAsyncTypebox<MultichainRoutesOptions> = async (app, opts) => {
  dialectScope(app, MULTICHAIN_DIALECT);
  const clusterId = opts.clusterId ?? DEFAULT_CLUSTER_ID;
  const deps: MultichainDeps = {
    chains: opts.chains,
    limits: { ...DEFAULT_FAN_OUT, ...opts.limits },
    onMissing: (chain: MultichainChain, err: unknown) =>
      app.log.warn({ err, chainId: chain.id }, "multichain: chain left out of an answer"),
  };
  const cluster = (id: string) => {
    if (id !== clusterId)
      throw new DialectAnswer(
        { status: 404, body: actixError(GRPC.NOT_FOUND, `cluster not found: ${id}`) },
        "cluster not found",
      );
  };
  const chainsBody = async () => ({ items: (await listChains(deps)).map(chainView) });
  const listQuery = (q: {
    q?: string;
    chain_id?: string | string[];
    page_size?: string;
    page_token?: string;
  }) => ({
    q: q.q ?? "",
    chainId: q.chain_id,
    pageSize: pageSize(q.page_size),
    ...(q.page_token !== undefined ? { pageToken: q.page_token } : {}),
  });
  const ClusterParams = Type.Object({ cluster_id: Type.String({ maxLength: 256 }) });

  app.get("/health", { schema: doc(HealthSchema) }, async () => ({ status: "SERVING" }));
  app.get(
    "/api/v1/chains",
    {
      schema: {
        ...doc(ChainsSchema),
        querystring: Type.Object({ only_active: Type.Optional(Type.String()) }),
      },
    },
    async (req) => {
      // Every chain of the deployment is indexed: all are active.
      flag(req.query.only_active, "only_active");
      return chainsBody();
    },
  );
  app.get(
    "/api/v1/search::quick",
    {
      schema: {
        ...doc(QuickSearchSchema),
        querystring: QuickSearchQuery,
      },
    },
    async (req, reply) =>
      send(
        reply,
        await quickSearch(
          deps,
          req.query.q ?? "",
          flag(req.query.unlimited_per_chain, "unlimited_per_chain"),
        ),
      ),
  );
  app.get(
    "/api/v1/addresses",
    { schema: { ...doc(AddressListSchema), querystring: ListQuerySchema } },
    async (req, reply) => send(reply, await listAddresses(deps, listQuery(req.query))),
  );
  app.get(
    "/api/v1/tokens",
    { schema: { ...doc(TokenListSchema), querystring: ListQuerySchema } },
    async (req, reply) => send(reply, await listTokens(deps, listQuery(req.query))),
  );
  app.get(
    "/api/v1/transactions",
    { schema: { ...doc(HashListSchema), querystring: ListQuerySchema } },
    async (req, reply) => send(reply, await listHashes(deps, "HASH_TYPE_TRANSACTION", listQuery(req.query))),
  );
  app.get(
    "/api/v1/blocks",
    { schema: { ...doc(HashListSchema), querystring: ListQuerySchema } },
    async (req, reply) => send(reply, await listHashes(deps, "HASH_TYPE_BLOCK", listQuery(req.query))),
  );
  app.get(
    "/api/v1/block-numbers",
    { schema: { ...doc(BlockNumberListSchema), querystring: ListQuerySchema } },
    async (req, reply) => send(reply, await listBlockNumbers(deps, listQuery(req.query))),
  );
  app.get(
    "/api/v1/clusters/:cluster_id/chains",
    { schema: { ...doc(ChainsSchema), params: ClusterParams } },
    async (req) => {
      cluster(req.params.cluster_id);
      return chainsBody();
    },
  );
  app.get(
    "/api/v1/clusters/:cluster_id/search::quick",
    {
      schema: {
        ...doc(ClusterQuickSearchSchema),
        params: ClusterParams,
        querystring: QuickSearchQuery,
      },
    },
    async (req, reply) => {
      cluster(req.params.cluster_id);
      const q = req.query;
      return send(
        reply,
        await clusterQuickSearch(deps, q.q ?? "", flag(q.unlimited_per_chain, "unlimited_per_chain")),
      );
    },
  );
  app.get(
    "/api/v1/clusters/:cluster_id/addresses/:address_hash",
    {
      schema: {
        ...doc(AggregatedAddressSchema),
        params: Type.Object({
          cluster_id: Type.String({ maxLength: 256 }),
          address_hash: Type.String({ maxLength: 256 }),
        }),
      },
    },
    async (req, reply) => {
      cluster(req.params.cluster_id);
      return send(reply, await addressAcrossChains(deps, req.params.address_hash));
    },
  );
};
