import { Type } from "@sinclair/typebox";
import { dialectScope } from "../../http/scope.js";
import { chainConfigs } from "../../verifier/api.js";
import type { VerifierDialect } from "../dialect.js";
import {
  solidityMultiPartVerifyRequest,
  standardJsonVerifyRequest,
  vyperMultiPartVerifyRequest,
} from "./parse.js";
import {
  Chain,
  Compiler,
  ErrorBody,
  SolidityMultiPartBody,
  StandardJsonBody,
  VerifyResultBody,
  VyperMultiPartBody,
} from "./schemas.js";
import { chainView, v1VerificationBody } from "./view.js";

const tags = ["verifier"];
const errors = { 400: ErrorBody };
const verifySchema = <B>(body: B, summary: string) => ({
  tags,
  summary,
  body,
  response: { 200: VerifyResultBody, ...errors },
});

/** The proxy-verifier API (`/api/v1`), with its `{code, message}` error dialect. */
export const apiV1Plugin: VerifierDialect["plugin"] = async (app, o) => {
  const { api, dialect } = o;
  if (!api) return;
  dialectScope(app, dialect);
  app.setNotFoundHandler((_req, reply) => {
    const e = dialect.error(404, "Not found");
    void reply.code(e.status).send(e.body);
  });
  const { compilers } = api;

  const verify = api.verify;
  if (verify) {
    // A literal colon is `::` in a Fastify path (a single one starts a parameter).
    app.post(
      "/solidity/sources::verify-standard-json",
      { schema: verifySchema(StandardJsonBody, "Verify Solidity sources given as standard JSON") },
      async (req) => v1VerificationBody(await verify(standardJsonVerifyRequest("Solidity", req.body))),
    );
    app.post(
      "/solidity/sources::verify-multi-part",
      { schema: verifySchema(SolidityMultiPartBody, "Verify Solidity source files (multi-part)") },
      async (req) => v1VerificationBody(await verify(solidityMultiPartVerifyRequest(req.body))),
    );
    // Vyper: the Solidity routes' flow and response shapes (one verify service, one store); only the input differs.
    app.post(
      "/vyper/sources::verify-standard-json",
      { schema: verifySchema(StandardJsonBody, "Verify Vyper sources given as standard JSON") },
      async (req) => v1VerificationBody(await verify(standardJsonVerifyRequest("Vyper", req.body))),
    );
    app.post(
      "/vyper/sources::verify-multi-part",
      { schema: verifySchema(VyperMultiPartBody, "Verify Vyper source files and interfaces (multi-part)") },
      async (req) => v1VerificationBody(await verify(vyperMultiPartVerifyRequest(req.body))),
    );
  }

  app.get(
    "/chains",
    { schema: { tags, response: { 200: Type.Object({ chains: Type.Array(Chain) }), ...errors } } },
    async () => ({ chains: chainConfigs(api).map(chainView) }),
  );
  app.get(
    "/solidity/compilers",
    { schema: { tags, response: { 200: Type.Object({ compilers: Type.Array(Compiler) }), ...errors } } },
    async () => {
      await compilers.settled?.();
      return { compilers: compilers.listSolidity() };
    },
  );
  app.get(
    "/vyper/compilers",
    { schema: { tags, response: { 200: Type.Object({ compilers: Type.Array(Compiler) }), ...errors } } },
    async () => {
      await compilers.settled?.();
      return { compilers: compilers.listVyper() };
    },
  );
  app.get(
    "/verification/config",
    {
      schema: {
        tags,
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
      await compilers.settled?.();
      return {
        chains: chainConfigs(api).map(chainView),
        solidityCompilers: compilers.listSolidity(),
        vyperCompilers: compilers.listVyper(),
      };
    },
  );
};
