import multipart from "@fastify/multipart";
import { Type } from "@sinclair/typebox";
import { ADDRESS_HASH_PATTERN } from "../../explorer/errors.js";
import { multipartOptions, multipartTotalBytes, readMultipart } from "../../http/multipart-body.js";
import { dialectScope } from "../../http/scope.js";
import { saveContractLicense } from "../../verifier/store/index.js";
import { chainFor, submitVerification } from "../../verifier/submit.js";
import type { VerifierDialect } from "../dialect.js";
import { InvalidValueBody, MessageBody } from "./errors.js";
import { FORM_METHODS, type FormMethod, formRequest } from "./parse.js";
import { ConfigBody, LICENSE_TYPES, verificationConfigView } from "./view.js";

const Params = Type.Object({
  address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }),
  method: Type.String(),
});

const STARTED = { message: "Smart-contract verification started" };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The frontend's verify form: `GET /smart-contracts/verification/config` and
 * `POST /smart-contracts/{hash}/verification/via/{method}` (JSON for flattened and Vyper code, multipart for the
 * rest). Checks what Blockscout checks at once (a contract at the address, not already verified), queues a
 * verification job and answers "started"; the outcome reaches the socket (`addresses:{hash}`, `verification_result`).
 */
export const verifyFormPlugin: VerifierDialect["plugin"] = async (app, { api: given, dialect }) => {
  const jobs = given?.jobs;
  if (!given || !jobs) return;
  const api = { ...given, jobs };
  dialectScope(app, dialect);
  const limits = api.formLimits;
  await app.register(multipart, multipartOptions(limits));
  const tags = ["smart-contracts"];

  app.get(
    "/smart-contracts/verification/config",
    { schema: { tags, response: { 200: ConfigBody, 422: InvalidValueBody } } },
    async () => {
      await api.compilers.settled?.();
      return verificationConfigView(api.compilers.listSolidity(), api.compilers.listVyper());
    },
  );

  app.post(
    "/smart-contracts/:address_hash_param/verification/via/:method",
    {
      schema: {
        params: Params,
        tags,
        response: {
          200: Type.Object(MessageBody.properties, { description: "Started, or already verified" }),
          404: Type.Object(MessageBody.properties, {
            description: "An unknown method, or no contract at the address",
          }),
          422: InvalidValueBody,
        },
      },
    },
    async (req, reply) => {
      const { address_hash_param, method } = req.params;
      if (!(FORM_METHODS as readonly string[]).includes(method))
        return reply.code(404).send({ message: "Not found" });
      const address = address_hash_param.toLowerCase();
      const submission = req.isMultipart()
        ? await readMultipart(req, multipartTotalBytes(limits))
        : { fields: isRecord(req.body) ? req.body : {}, files: [] };
      const chain = chainFor(api.chains, undefined);
      const request = formRequest(method as FormMethod, submission, chain.config.id, address);
      const license = submission.fields.license_type;
      const r = await submitVerification(api, request, {
        checkCompiler: false,
        code: "if-answered",
        // Blockscout keeps the license the form names with the contract.
        ...(typeof license === "string" && license in LICENSE_TYPES
          ? { beforeQueue: () => saveContractLicense(api.db, chain.config.id, address, license) }
          : {}),
      });
      switch (r.status) {
        case "no-code":
          return reply.code(404).send({ message: "Address is not a smart-contract" });
        case "already-verified":
          return { message: "Already verified" };
        default:
          // A verification of the same contract already running reports on the same channel; no second job.
          return STARTED;
      }
    },
  );
};
