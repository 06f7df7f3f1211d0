import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { InvalidInputError } from "../../errors/base.js";
import { getVerifiedContract } from "../../verifier/store/index.js";
import { ADDRESS_RE, type VerificationApiDeps } from "../etherscan/deps.js";
import { errorBody, SourcifyError, sourcifyErrorHandler } from "./errors.js";
import { submissionFromBody } from "./verify-request.js";
import { contractView, jobView, minimalContract, selectedFields, unverifiedContract } from "./views.js";

type ContractParams = { chainId: string; address: string };

function checkTarget(deps: VerificationApiDeps, p: ContractParams): { chainId: string; address: string } {
  if (!/^\d+$/.test(p.chainId) || !deps.chains.has(p.chainId)) {
    throw new SourcifyError(
      "unsupported_chain",
      `Chain ${p.chainId} is not supported for verification (supported: ${[...deps.chains.keys()].join(", ")})`,
    );
  }
  if (!ADDRESS_RE.test(p.address)) {
    throw new SourcifyError(
      "invalid_parameter",
      `Invalid address "${p.address}": expected 0x and 40 hex digits`,
    );
  }
  return { chainId: p.chainId, address: p.address.toLowerCase() };
}

const ErrorSchema = Type.Object({
  customCode: Type.String(),
  message: Type.String(),
  errorId: Type.String(),
});
const errors = { "4xx": ErrorSchema, "5xx": ErrorSchema };

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The Sourcify-v2-compatible API, mounted under `/sourcify` (so clients use `--verifier-url <host>/sourcify/`):
 * verification jobs, job status and contract lookup, with Sourcify's `{customCode, message, errorId}` errors.
 */
export const sourcifyPlugin: FastifyPluginAsync<{ deps: VerificationApiDeps }> = async (app, { deps }) => {
  app.setErrorHandler(sourcifyErrorHandler);
  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).send(errorBody("route_not_found", `No route ${req.method} ${req.url}`));
  });
  const tags = ["sourcify"];

  app.post<{ Params: ContractParams }>(
    "/v2/verify/:chainId/:address",
    {
      schema: {
        tags,
        summary: "Verify a contract from standard JSON input (asynchronous)",
        response: { 202: Type.Object({ verificationId: Type.String() }), ...errors },
      },
    },
    async (req, reply) => {
      const { chainId, address } = checkTarget(deps, req.params);
      const submission = submissionFromBody(req.body, chainId, address);
      await deps.compilers.settled?.();
      try {
        deps.compilers.resolveVersion(submission.language, submission.compiler);
      } catch (e) {
        if (e instanceof InvalidInputError) throw new SourcifyError("invalid_parameter", e.shortMessage);
        throw e;
      }
      const stored = await getVerifiedContract(deps.db, chainId, address);
      // Only an exact match on both sides leaves nothing to improve (Sourcify's rule; forge skips on the same).
      if (stored && stored.creationMatch === "full" && stored.runtimeMatch === "full" && !stored.automatic) {
        throw new SourcifyError(
          "already_verified",
          `Contract ${address} on chain ${chainId} is already verified`,
        );
      }
      const r = await deps.jobs.submit(submission);
      if (r.status === "duplicate") {
        throw new SourcifyError(
          "duplicate_verification_request",
          `A verification of ${address} on chain ${chainId} is already running (verificationId ${r.job.id})`,
        );
      }
      return reply.code(202).send({ verificationId: r.job.id });
    },
  );

  app.get<{ Params: { verificationId: string } }>(
    "/v2/verify/:verificationId",
    {
      schema: {
        tags,
        summary: "A verification job's status and result",
        response: { 200: Type.Unknown({ description: "Sourcify's verification job object" }), ...errors },
      },
    },
    async (req) => {
      const id = req.params.verificationId;
      const job = UUID_RE.test(id) ? await deps.jobs.get(id.toLowerCase()) : null;
      if (!job) throw new SourcifyError("job_not_found", `No verification job with id ${id}`);
      return jobView(job);
    },
  );

  app.get<{ Params: { address: string } }>(
    "/v2/contract/all-chains/:address",
    {
      schema: {
        tags,
        summary: "A contract's verifications on every chain",
        response: { 200: Type.Object({ results: Type.Array(Type.Unknown()) }), ...errors },
      },
    },
    async (req) => {
      if (!ADDRESS_RE.test(req.params.address)) {
        throw new SourcifyError("invalid_parameter", `Invalid address "${req.params.address}"`);
      }
      const found = await Promise.all(
        [...deps.chains.keys()].map((c) => getVerifiedContract(deps.db, c, req.params.address.toLowerCase())),
      );
      return { results: found.filter((r) => r !== null).map(minimalContract) };
    },
  );

  app.get<{ Params: ContractParams; Querystring: { fields?: string | string[]; omit?: string | string[] } }>(
    "/v2/contract/:chainId/:address",
    {
      schema: {
        tags,
        summary: "A verified contract (404 with match null when not verified)",
        response: {
          200: Type.Unknown({ description: "Sourcify's contract object (fields as selected)" }),
          404: Type.Unknown({ description: "The minimal contract object with match null, or an error" }),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      const { chainId, address } = checkTarget(deps, req.params);
      const stored = await getVerifiedContract(deps.db, chainId, address);
      // Unverified is a 404 with the minimal body: hardhat-verify reads exactly that as "not verified".
      if (!stored) return reply.code(404).send(unverifiedContract(chainId, address));
      return contractView(stored, selectedFields(req.query.fields, req.query.omit));
    },
  );
};
