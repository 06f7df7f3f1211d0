import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { type TSchema, Type } from "@sinclair/typebox";
import type { FastifyError } from "fastify";
import { type ErrorDialect, transientFailureReply } from "../../http/dialects.js";
import { RESOLUTIONS, type Resolution } from "./catalogue.js";
import {
  ContractsPageSchema,
  CountersSchema,
  LineChartSchema,
  LineChartsSchema,
  MainPageSchema,
  StatsErrorSchema,
  TransactionsPageSchema,
  UpdateStatusSchema,
} from "./schema.js";
import {
  contractsPage,
  counters,
  lineChart,
  lineChartList,
  mainPage,
  type StatsServiceDeps,
  transactionsPage,
  updateStatus,
} from "./service.js";

/** Where Lookout serves the stats service (the frontend's NEXT_PUBLIC_STATS_API_BASE_PATH). */
export const STATS_SERVICE_PREFIX = "/stats-service";

/** gRPC status codes the service answers with, by HTTP status. */
const GRPC_CODE: Record<number, number> = { 400: 3, 404: 5, 503: 14 };

/** The service's error dialect (grpc-gateway's `{code, message}`), also for framework errors under its prefix. */
export const STATS_SERVICE_DIALECT: ErrorDialect = {
  name: "stats-service",
  paths: [STATS_SERVICE_PREFIX],
  error: (status, message, cause) => {
    if (status >= 500 && cause?.kind !== "unavailable")
      return { status: 500, body: { code: 13, message: "internal error" } };
    const s = cause?.kind === "unavailable" ? 503 : status;
    return { status: s, body: { code: GRPC_CODE[s] ?? (s < 500 ? 3 : 13), message } };
  },
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const schema = (ok: TSchema) => ({
  tags: ["stats-service"],
  response: { 200: ok, "4xx": StatsErrorSchema, "5xx": StatsErrorSchema },
});

/** A date of the query (`YYYY-MM-DD`, a real day), or the reason it is not one. */
function day(v: string | undefined, name: string): { ok: string | undefined } | { error: string } {
  if (v === undefined || v === "") return { ok: undefined };
  const t = DATE.test(v) ? Date.parse(`${v}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== v)
    return { error: `invalid ${name}: expected a date as YYYY-MM-DD` };
  return { ok: v };
}

/**
 * Blockscout's stats service (blockscout-rs `stats`, api_config_http.yaml) under the prefix the app gives it: the
 * frontend's NEXT_PUBLIC_STATS_API_HOST and NEXT_PUBLIC_STATS_API_BASE_PATH point here. Errors are its
 * `{code, message}` (gRPC codes: 3 invalid argument, 5 not found).
 */
export const statsServiceRoutes: FastifyPluginAsyncTypebox<{ deps: StatsServiceDeps }> = async (
  app,
  { deps },
) => {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const transient = transientFailureReply(err, req, reply, STATS_SERVICE_DIALECT);
    if (transient) return transient;
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) req.log.error({ err }, "Request failed");
    const e = STATS_SERVICE_DIALECT.error(status, err.message);
    return reply.code(e.status).send(e.body);
  });
  app.get("/api/v1/counters", { schema: schema(CountersSchema) }, async () => counters(deps));
  app.get("/api/v1/lines", { schema: schema(LineChartsSchema) }, async () => lineChartList(deps));
  app.get(
    "/api/v1/lines/:name",
    {
      schema: {
        tags: ["stats-service"],
        response: { 200: LineChartSchema, "4xx": StatsErrorSchema, "5xx": StatsErrorSchema },
        params: Type.Object({ name: Type.String() }),
        querystring: Type.Object({
          from: Type.Optional(Type.String()),
          to: Type.Optional(Type.String()),
          resolution: Type.Optional(Type.String()),
        }),
      },
    },
    async (req, reply) => {
      const { name } = req.params;
      const q = req.query;
      const from = day(q.from, "from");
      const to = day(q.to, "to");
      const res =
        q.resolution === undefined || q.resolution === "" ? "DAY" : String(q.resolution).toUpperCase();
      const bad =
        ("error" in from && from.error) ||
        ("error" in to && to.error) ||
        (!RESOLUTIONS.includes(res as Resolution) && `invalid resolution: ${q.resolution}`);
      if (bad) return reply.code(400).send({ code: 3, message: bad });
      const chart = await lineChart(deps, name, {
        ...("ok" in from && from.ok ? { from: from.ok } : {}),
        ...("ok" in to && to.ok ? { to: to.ok } : {}),
        resolution: res as Resolution,
      });
      if (!chart) return reply.code(404).send({ code: 5, message: `chart ${name} not found` });
      return chart;
    },
  );
  app.get("/api/v1/pages/main", { schema: schema(MainPageSchema) }, async () => mainPage(deps));
  app.get("/api/v1/pages/transactions", { schema: schema(TransactionsPageSchema) }, async () =>
    transactionsPage(deps),
  );
  app.get("/api/v1/pages/contracts", { schema: schema(ContractsPageSchema) }, async () =>
    contractsPage(deps),
  );
  app.get("/api/v1/update-status", { schema: schema(UpdateStatusSchema) }, async () => updateStatus());
};
