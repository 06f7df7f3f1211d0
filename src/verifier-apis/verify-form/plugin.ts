import multipart from "@fastify/multipart";
import { Type } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import { InvalidInputError, LookoutError } from "../../errors/base.js";
import { ADDRESS_HASH_PATTERN } from "../../explorer/errors.js";
import { dialectScope } from "../../http/scope.js";
import { saveContractLicense } from "../../verifier/store/index.js";
import { chainFor, submitVerification } from "../../verifier/submit.js";
import type { VerifierDialect } from "../dialect.js";
import { InvalidValueBody, MessageBody } from "./errors.js";
import { FORM_METHODS, type FormMethod, type FormSubmission, formRequest } from "./parse.js";
import { ConfigBody, LICENSE_TYPES, verificationConfigView } from "./view.js";

const Params = Type.Object({
  address_hash_param: Type.String({ pattern: ADDRESS_HASH_PATTERN }),
  method: Type.String(),
});

const STARTED = { message: "Smart-contract verification started" };

/** Reads a multipart body into fields and text files, within the bounds. */
async function readMultipart(req: FastifyRequest, totalBytes: number): Promise<FormSubmission> {
  const out: FormSubmission = { fields: {}, files: [] };
  let total = 0;
  try {
    for await (const part of req.parts()) {
      if (part.type === "file") {
        const buf = await part.toBuffer();
        total += buf.length;
        if (total > totalBytes)
          throw new InvalidInputError(`The files exceed ${totalBytes} bytes in all`, { field: "files" });
        out.files.push({
          field: part.fieldname,
          name: part.filename || part.fieldname,
          content: buf.toString("utf8"),
        });
      } else {
        out.fields[part.fieldname] = part.value;
      }
    }
  } catch (e) {
    // A body the multipart parser cannot read (no boundary, a wrong one, cut short) is the client's mistake (found
    // by the route fuzz test: it answered 500); the parser's limit errors carry their 4xx status already.
    const status = (e as { statusCode?: unknown }).statusCode;
    if (e instanceof LookoutError || (typeof status === "number" && status < 500)) throw e;
    throw new InvalidInputError(
      `Malformed multipart/form-data body: ${e instanceof Error ? e.message : String(e)}`,
      { field: "body", cause: e },
    );
  }
  return out;
}

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
  await app.register(multipart, {
    limits: {
      fileSize: limits?.fileBytes ?? 5 * 1024 * 1024,
      files: limits?.files ?? 100,
      fields: 50,
      fieldSize: 1024 * 1024,
      parts: 200,
    },
    throwFileSizeLimit: true,
  });
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
        ? await readMultipart(req, limits?.totalBytes ?? 20 * 1024 * 1024)
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
