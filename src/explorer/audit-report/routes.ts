import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { ResourceOptions } from "../deps.js";
import { answers, NOT_FOUND } from "../errors.js";
import { ADDRESS_PARAMS, lower } from "../params.js";
import { AuditReportsSchema, MessageSchema } from "./schema.js";
import { auditReports } from "./service.js";

/** Blockscout's answer to a submission while its audit-report form (AirTable) is not configured. */
const DISABLED = { message: "API endpoint is disabled" } as const;

/** GET and POST /smart-contracts/{h}/audit-reports (SmartContractController). */
export const auditReportRoutes: FastifyPluginAsyncTypebox<ResourceOptions> = async (app, { deps }) => {
  const tags = ["smart-contracts"];
  app.get(
    "/smart-contracts/:address_hash_param/audit-reports",
    { schema: { params: ADDRESS_PARAMS, tags, response: answers(AuditReportsSchema, { notFound: true }) } },
    async (req, reply) =>
      (await auditReports(deps, lower(req.params.address_hash_param))) ?? reply.code(404).send(NOT_FOUND),
  );
  app.post(
    "/smart-contracts/:address_hash_param/audit-reports",
    {
      schema: {
        params: ADDRESS_PARAMS,
        tags,
        response: {
          403: { ...MessageSchema, description: "Submissions are not taken" },
          422: answers(MessageSchema)[422],
        },
      },
    },
    async (_req, reply) => reply.code(403).send(DISABLED),
  );
};
