import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyError, FastifyReply } from "fastify";
import type { Address, Hex } from "viem";
import { CSV_RESPONSE, sendCsv } from "../../http/csv.js";
import { plainDialect, transientFailureReply } from "../../http/dialects.js";
import type { ExplorerDeps, ResourceOptions } from "../deps.js";
import { answers, NOT_FOUND, NotFoundSchema, V2ErrorSchema } from "../errors.js";
import { ADDRESS_PARAMS, lower } from "../params.js";
import { AddressCsvQuery, CsvExportConfigSchema, HoldersCsvQuery, V1CsvQuery } from "./schema.js";
import {
  addressKnown,
  csvExportConfig,
  type ExportRequest,
  exportDirection,
  holdersCsv,
  internalTransactionsCsv,
  logsCsv,
  periodBound,
  tokenTransfersCsv,
  transactionsCsv,
} from "./service.js";

type Exporter = (deps: ExplorerDeps, q: ExportRequest) => AsyncGenerator<string>;

const EXPORTS: ReadonlyArray<{ path: string; v1: string; exporter: Exporter }> = [
  { path: "transactions", v1: "transactions-csv", exporter: transactionsCsv },
  { path: "token-transfers", v1: "token-transfers-csv", exporter: tokenTransfersCsv },
  { path: "internal-transactions", v1: "internal-transactions-csv", exporter: internalTransactionsCsv },
  { path: "logs", v1: "logs-csv", exporter: logsCsv },
];

const CSV_ANSWERS = { 200: CSV_RESPONSE, 404: NotFoundSchema, 422: V2ErrorSchema };
const HASH = /^0x[0-9a-fA-F]{64}$/;

async function exportFor(
  deps: ExplorerDeps,
  reply: FastifyReply,
  exporter: Exporter,
  q: { address: Address; from?: string; to?: string; filterType?: string; filterValue?: string },
) {
  if (!(await addressKnown(deps, q.address))) return reply.code(404).send(NOT_FOUND);
  return sendCsv(
    reply,
    exporter(deps, {
      address: q.address,
      from: periodBound(q.from, false),
      to: periodBound(q.to, true),
      direction: exportDirection(q.filterType, q.filterValue),
      // The logs export reads a topic from filter_value (the older frontend's filterType=topic).
      topic: q.filterValue && HASH.test(q.filterValue) ? (q.filterValue.toLowerCase() as Hex) : null,
    }),
  );
}

/**
 * CSV exports under /api/v2 (Blockscout's CsvExportController): an address's transactions, token transfers,
 * internal transactions and logs in a period, a token's holders, and `/config/csv-export`. Streamed, at most
 * CSV_EXPORT_LIMIT rows; no reCAPTCHA is asked for (`recaptcha_response` is accepted and ignored).
 */
export const csvExportRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  for (const e of EXPORTS)
    app.get(
      `/addresses/:address_hash_param/${e.path}/csv`,
      {
        schema: {
          params: ADDRESS_PARAMS,
          querystring: AddressCsvQuery,
          tags: ["addresses"],
          response: CSV_ANSWERS,
        },
      },
      async (req, reply) =>
        exportFor(deps, reply, e.exporter, {
          address: lower(req.params.address_hash_param),
          from: req.query.from_period,
          to: req.query.to_period,
          filterType: req.query.filter_type,
          filterValue: req.query.filter_value,
        }),
    );
  app.get(
    "/tokens/:address_hash_param/holders/csv",
    {
      schema: {
        params: ADDRESS_PARAMS,
        querystring: HoldersCsvQuery,
        tags: ["tokens"],
        response: CSV_ANSWERS,
      },
    },
    async (req, reply) => {
      const lines = await holdersCsv(deps, lower(req.params.address_hash_param));
      return lines ? sendCsv(reply, lines) : reply.code(404).send(NOT_FOUND);
    },
  );
  app.get(
    "/config/csv-export",
    { schema: { tags: ["config"], response: answers(CsvExportConfigSchema) } },
    async () => csvExportConfig(),
  );
};

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The `/api/v1/*-csv` routes Blockscout served before moving them under /api/v2 (the frontend v2.0.3 still calls
 * them): `address_id`, `from_period` and `to_period` are required (404 without them, as Blockscout's fallback
 * clause), a malformed address is a 422.
 */
export const csvExportV1Routes: FastifyPluginAsyncTypebox<{ deps: ExplorerDeps }> = async (app, { deps }) => {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const transient = transientFailureReply(err, req, reply, plainDialect([]));
    if (transient) return transient;
    const status = err.statusCode && err.statusCode < 500 ? err.statusCode : 500;
    return reply.code(status).send({ message: status === 500 ? "Internal server error" : err.message });
  });
  for (const e of EXPORTS)
    app.get(
      `/${e.v1}`,
      {
        schema: {
          querystring: V1CsvQuery,
          tags: ["csv-export"],
          response: { 200: CSV_RESPONSE, 404: NotFoundSchema, 422: NotFoundSchema },
        },
      },
      async (req, reply) => {
        const { address_id, from_period, to_period } = req.query;
        if (address_id === undefined || from_period === undefined || to_period === undefined)
          return reply.code(404).send(NOT_FOUND);
        if (!ADDRESS.test(address_id)) return reply.code(422).send({ message: "Unprocessable entity" });
        return exportFor(deps, reply, e.exporter, {
          address: lower(address_id),
          from: from_period,
          to: to_period,
          filterType: req.query.filter_type,
          filterValue: req.query.filter_value,
        });
      },
    );
};
