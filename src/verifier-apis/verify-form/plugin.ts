import multipart from "@fastify/multipart";
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { toBytea } from "../../db/bytes.js";
import { InvalidInputError, LookoutError } from "../../errors/base.js";
import { ADDRESS_HASH_PATTERN } from "../../explorer/errors.js";
import type { CompilerVersionInfo } from "../../verifier/compilers/index.js";
import { checkRequestLimits } from "../../verifier/service/index.js";
import { getVerifiedContract } from "../../verifier/store/index.js";
import { chainFor, type VerificationApiDeps } from "../etherscan/deps.js";
import { LICENSE_TYPES, verificationConfigView } from "./config-view.js";
import { FORM_METHODS, type FormMethod, type FormSubmission, formRequest } from "./parse.js";

export type VerificationFormDeps = VerificationApiDeps & {
  lists: {
    listSolidity(): CompilerVersionInfo[];
    listVyper(): CompilerVersionInfo[];
    settled?(): Promise<unknown>;
  };
  /** Bounds of a multipart submission (defaults: 5 MB a file, 100 files, 20 MB in all). */
  limits?: { fileBytes?: number; files?: number; totalBytes?: number };
};

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

/**
 * The frontend's verify form: `GET /smart-contracts/verification/config` and
 * `POST /smart-contracts/{hash}/verification/via/{method}` (JSON for flattened and Vyper code, multipart for the
 * rest). Checks what Blockscout checks at once (a contract at the address, not already fully verified), queues a
 * verification job and answers "started"; the outcome reaches the socket (`addresses:{hash}`, `verification_result`).
 */
export const verificationFormRoutes: FastifyPluginAsync<{ deps: VerificationFormDeps }> = async (
  app,
  { deps },
) => {
  const fileBytes = deps.limits?.fileBytes ?? 5 * 1024 * 1024;
  await app.register(multipart, {
    limits: {
      fileSize: fileBytes,
      files: deps.limits?.files ?? 100,
      fields: 50,
      fieldSize: 1024 * 1024,
      parts: 200,
    },
    throwFileSizeLimit: true,
  });

  app.get("/smart-contracts/verification/config", { schema: { tags: ["smart-contracts"] } }, async () => {
    await deps.lists.settled?.();
    return verificationConfigView(deps.lists.listSolidity(), deps.lists.listVyper());
  });

  app.post(
    "/smart-contracts/:address_hash_param/verification/via/:method",
    { schema: { params: Params, tags: ["smart-contracts"] } },
    async (req, reply) => {
      const { address_hash_param, method } = req.params as { address_hash_param: string; method: string };
      if (!(FORM_METHODS as readonly string[]).includes(method))
        return reply.code(404).send({ message: "Not found" });
      const address = address_hash_param.toLowerCase();
      const submission = req.isMultipart()
        ? await readMultipart(req, deps.limits?.totalBytes ?? 20 * 1024 * 1024)
        : { fields: (req.body ?? {}) as Record<string, unknown>, files: [] };
      const chain = chainFor(deps, undefined);
      const request = formRequest(method as FormMethod, submission, chain.config.id, address);
      checkRequestLimits(request);

      const code = await chain.rpc.request<string>("eth_getCode", [address, "latest"]).catch(() => null);
      if (code === "0x" || code === "0x0")
        return reply.code(404).send({ message: "Address is not a smart-contract" });
      const stored = await getVerifiedContract(deps.db, chain.config.id, address);
      if (stored?.matchType === "full" && !stored.automatic) return { message: "Already verified" };

      // Blockscout keeps the license the form names with the contract.
      const license = submission.fields.license_type;
      if (typeof license === "string" && license in LICENSE_TYPES)
        await deps.db.query(
          `insert into contract_licenses (chain_id, address, license_type) values ($1, $2, $3)
           on conflict (chain_id, address) do update set license_type = excluded.license_type`,
          [chain.config.id, toBytea(address), license],
        );
      // A verification of the same contract already running reports on the same channel; no second job.
      await deps.jobs.submit(request);
      return STARTED;
    },
  );
};
