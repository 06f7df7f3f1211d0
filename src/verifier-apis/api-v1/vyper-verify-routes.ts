import { type Static, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { parseStandardJsonInput } from "../../verifier/service/index.js";
import { normaliseVyperStandardJson, vyperMultiPartInput } from "../../verifier/vyper/index.js";
import { ContractRef, ErrorBody, StandardJsonBody, VerifyResultBody } from "./schemas.js";
import { type VerifyFn, v1VerificationBody } from "./verify-routes.js";

const MultiPartBody = Type.Object({
  contracts: Type.Array(ContractRef),
  compiler: Type.String(),
  evmVersion: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  sourceFiles: Type.Record(Type.String(), Type.String()),
  interfaces: Type.Optional(Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()])),
});

/**
 * POST /vyper/sources:verify-standard-json and :verify-multi-part: the Solidity routes' flow and response shapes
 * (one verify service, one store); only the input differs (src/verifier/vyper).
 */
export const vyperVerifyRoutes: FastifyPluginAsync<{ verify: VerifyFn }> = async (app, { verify }) => {
  app.post<{ Body: Static<typeof StandardJsonBody> }>(
    "/vyper/sources::verify-standard-json",
    {
      schema: {
        tags: ["verifier"],
        summary: "Verify Vyper sources given as standard JSON",
        body: StandardJsonBody,
        response: { 200: VerifyResultBody, 400: ErrorBody },
      },
    },
    async (req) => {
      const parsed = parseStandardJsonInput(req.body.input);
      return v1VerificationBody(
        await verify({
          language: "Vyper",
          compiler: req.body.compiler,
          contracts: req.body.contracts,
          ...(parsed.ok
            ? { input: normaliseVyperStandardJson(parsed.input) }
            : { inputProblem: parsed.message }),
        }),
      );
    },
  );
  app.post<{ Body: Static<typeof MultiPartBody> }>(
    "/vyper/sources::verify-multi-part",
    {
      schema: {
        tags: ["verifier"],
        summary: "Verify Vyper source files and interfaces (multi-part)",
        body: MultiPartBody,
        response: { 200: VerifyResultBody, 400: ErrorBody },
      },
    },
    async (req) => {
      const b = req.body;
      return v1VerificationBody(
        await verify({
          language: "Vyper",
          compiler: b.compiler,
          contracts: b.contracts,
          input: vyperMultiPartInput({
            sourceFiles: b.sourceFiles,
            interfaces: b.interfaces ?? null,
            evmVersion: b.evmVersion ?? null,
          }),
        }),
      );
    },
  );
};
