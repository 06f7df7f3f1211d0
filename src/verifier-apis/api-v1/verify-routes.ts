import { type Static, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import {
  parseStandardJsonInput,
  solidityMultiPartAttempts,
  type VerifyRequest,
  type VerifyResponse,
} from "../../verifier/service/index.js";
import { ContractRef, ErrorBody, StandardJsonBody, VerifyResultBody } from "./schemas.js";

/** The verify service as the HTTP layer calls it (bound to its dependencies). */
export type VerifyFn = (req: VerifyRequest) => Promise<VerifyResponse>;

const MultiPartBody = Type.Object({
  contracts: Type.Array(ContractRef),
  compiler: Type.String(),
  evmVersion: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  optimizationRuns: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0, maximum: 4294967295 }), Type.Null()]),
  ),
  sourceFiles: Type.Record(Type.String(), Type.String()),
  libraries: Type.Record(Type.String(), Type.String()),
});

/** `{contractValidationResults}`, `{compilationFailure}` or `{contractVerificationResults}`: exactly one key. */
export function v1VerificationBody(r: VerifyResponse) {
  switch (r.kind) {
    case "validation":
      return { contractValidationResults: { items: r.items } };
    case "compilationFailure":
      return { compilationFailure: { message: r.message, errors: r.errors } };
    case "verification":
      return { contractVerificationResults: { items: r.items } };
  }
}

const schemaOf = (body: typeof StandardJsonBody | typeof MultiPartBody, summary: string) => ({
  tags: ["verifier"],
  summary,
  body,
  response: { 200: VerifyResultBody, 400: ErrorBody },
});

/** POST /solidity/sources:verify-standard-json and :verify-multi-part (Blockscout proxy-verifier shapes). */
export const solidityVerifyRoutes: FastifyPluginAsync<{ verify: VerifyFn }> = async (app, { verify }) => {
  app.post<{ Body: Static<typeof StandardJsonBody> }>(
    "/solidity/sources::verify-standard-json",
    { schema: schemaOf(StandardJsonBody, "Verify Solidity sources given as standard JSON") },
    async (req) => {
      const parsed = parseStandardJsonInput(req.body.input);
      return v1VerificationBody(
        await verify({
          language: "Solidity",
          compiler: req.body.compiler,
          contracts: req.body.contracts,
          ...(parsed.ok ? { input: parsed.input } : { inputProblem: parsed.message }),
        }),
      );
    },
  );
  app.post<{ Body: Static<typeof MultiPartBody> }>(
    "/solidity/sources::verify-multi-part",
    { schema: schemaOf(MultiPartBody, "Verify Solidity source files (multi-part)") },
    async (req) => {
      const b = req.body;
      return v1VerificationBody(
        await verify({
          language: "Solidity",
          compiler: b.compiler,
          contracts: b.contracts,
          attempts: solidityMultiPartAttempts(
            {
              sourceFiles: b.sourceFiles,
              evmVersion: b.evmVersion ?? null,
              optimizationRuns: b.optimizationRuns ?? null,
              libraries: b.libraries,
            },
            b.compiler,
          ),
        }),
      );
    },
  );
};
