import { Type } from "@sinclair/typebox";
import { dialectScope } from "../../http/scope.js";
import { ADDRESS_RE, type VerifierApi } from "../../verifier/api.js";
import { getVerifiedContract } from "../../verifier/store/index.js";
import { submitVerification } from "../../verifier/submit.js";
import type { VerifierDialect } from "../dialect.js";
import { errorBody, SourcifyError } from "./errors.js";
import { submissionFromBody } from "./parse.js";
import {
  ContractObject,
  contractView,
  JobObject,
  jobView,
  MinimalContractObject,
  minimalContract,
  selectedFields,
  unverifiedContract,
} from "./view.js";

const ContractParams = Type.Object({ chainId: Type.String(), address: Type.String() });

function checkTarget(api: VerifierApi, p: { chainId: string; address: string }) {
  if (!/^\d+$/.test(p.chainId) || !api.chains.has(p.chainId)) {
    throw new SourcifyError(
      "unsupported_chain",
      `Chain ${p.chainId} is not supported for verification (supported: ${[...api.chains.keys()].join(", ")})`,
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
export const sourcifyPlugin: VerifierDialect["plugin"] = async (app, { api: given, dialect }) => {
  const jobs = given?.jobs;
  if (!given || !jobs) return;
  const api = given;
  dialectScope(app, dialect);
  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).send(errorBody("route_not_found", `No route ${req.method} ${req.url}`));
  });
  const tags = ["sourcify"];

  app.post(
    "/v2/verify/:chainId/:address",
    {
      schema: {
        tags,
        summary: "Verify a contract from standard JSON input (asynchronous)",
        params: ContractParams,
        response: { 202: Type.Object({ verificationId: Type.String() }), ...errors },
      },
    },
    async (req, reply) => {
      const { chainId, address } = checkTarget(api, req.params);
      const request = submissionFromBody(req.body, chainId, address);
      const r = await submitVerification({ ...api, jobs }, request, { checkCompiler: true, code: "skip" });
      switch (r.status) {
        case "no-code":
          throw new Error("unreachable: Sourcify submissions skip the code check");
        case "already-verified":
          throw new SourcifyError(
            "already_verified",
            `Contract ${address} on chain ${chainId} is already verified`,
          );
        case "duplicate":
          throw new SourcifyError(
            "duplicate_verification_request",
            `A verification of ${address} on chain ${chainId} is already running (verificationId ${r.job.id})`,
          );
        case "queued":
          return reply.code(202).send({ verificationId: r.job.id });
      }
    },
  );

  app.get(
    "/v2/verify/:verificationId",
    {
      schema: {
        tags,
        summary: "A verification job's status and result",
        params: Type.Object({ verificationId: Type.String() }),
        response: { 200: JobObject, ...errors },
      },
    },
    async (req) => {
      const id = req.params.verificationId;
      const job = UUID_RE.test(id) ? await jobs.get(id.toLowerCase()) : null;
      if (!job) throw new SourcifyError("job_not_found", `No verification job with id ${id}`);
      return jobView(job);
    },
  );

  app.get(
    "/v2/contract/all-chains/:address",
    {
      schema: {
        tags,
        summary: "A contract's verifications on every chain",
        params: Type.Object({ address: Type.String() }),
        response: { 200: Type.Object({ results: Type.Array(MinimalContractObject) }), ...errors },
      },
    },
    async (req) => {
      if (!ADDRESS_RE.test(req.params.address)) {
        throw new SourcifyError("invalid_parameter", `Invalid address "${req.params.address}"`);
      }
      const found = await Promise.all(
        [...api.chains.keys()].map((c) => getVerifiedContract(api.db, c, req.params.address.toLowerCase())),
      );
      return { results: found.filter((r) => r !== null).map(minimalContract) };
    },
  );

  app.get(
    "/v2/contract/:chainId/:address",
    {
      schema: {
        tags,
        summary: "A verified contract (404 with match null when not verified)",
        params: ContractParams,
        querystring: Type.Object({
          fields: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
          omit: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
        }),
        response: {
          200: ContractObject,
          404: Type.Union([MinimalContractObject, ErrorSchema], {
            description: "The minimal contract object with match null, or an error",
          }),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      const { chainId, address } = checkTarget(api, req.params);
      const stored = await getVerifiedContract(api.db, chainId, address);
      // Unverified is a 404 with the minimal body: hardhat-verify reads exactly that as "not verified".
      if (!stored) return reply.code(404).send(unverifiedContract(chainId, address));
      return contractView(stored, selectedFields(req.query.fields, req.query.omit));
    },
  );
};
