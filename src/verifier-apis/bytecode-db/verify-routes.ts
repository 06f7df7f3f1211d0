import type { Static } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { ChainConfig } from "../../config/chains.js";
import type { Queryable } from "../../db/db.js";
import {
  type ContractRef,
  parseStandardJsonInput,
  solidityMultiPartAttempts,
  type VerifyRequest,
  type VerifyResponse,
} from "../../verifier/service/index.js";
import { getVerifiedContract } from "../../verifier/store/index.js";
import { normaliseVyperStandardJson, vyperMultiPartInput } from "../../verifier/vyper/index.js";
import type { VerifyFn } from "../api-v1/verify-routes.js";
import {
  ErrorBody,
  SolidityMultiPartBody,
  SourcifyVerifyBody,
  StandardJsonBody,
  VerifyResponse as VerifyResponseSchema,
  VyperMultiPartBody,
} from "./schemas.js";
import { type SourceJson, sourceFromRecord } from "./source-view.js";
import { inputFromSourcifyFiles } from "./sourcify-files.js";
import { contractRefFor } from "./target.js";

export type VerifyRoutesOptions = { db: Queryable; chains: readonly ChainConfig[]; verify: VerifyFn };

type VerifyJson = { message: string; status: "SUCCESS" | "FAILURE"; source?: SourceJson };

const failure = (message: string): VerifyJson => ({ message, status: "FAILURE" });

/**
 * eth-bytecode-db's VerifyResponse for one contract: SUCCESS with the stored source (which may be a full match
 * kept against these sources' partial one), or FAILURE with why (upstream answers both with HTTP 200).
 */
export async function verifyResponseJson(db: Queryable, r: VerifyResponse): Promise<VerifyJson> {
  switch (r.kind) {
    case "validation":
      return failure(r.items.find((i) => i.status === "INVALID")?.message ?? "Invalid contract");
    case "compilationFailure":
      return failure(r.message);
    case "verification": {
      const item = r.items[0];
      if (!item) return failure("No contract to verify");
      if (item.status === "FAILURE") return failure(item.message);
      const record = await getVerifiedContract(db, item.chainId, item.address);
      if (!record) throw new Error(`verified contract ${item.chainId}/${item.address} is not in the store`);
      return { message: "OK", status: "SUCCESS", source: sourceFromRecord(record) };
    }
  }
}

// A literal colon is `::` in a Fastify path (a single one starts a parameter).
const schema = (body: unknown, summary: string) => ({
  tags: ["eth-bytecode-db"],
  summary,
  body,
  response: { 200: VerifyResponseSchema, 400: ErrorBody },
});

/** The verify routes of eth-bytecode-db's SolidityVerifier, VyperVerifier and SourcifyVerifier services. */
export const verifyRoutes: FastifyPluginAsync<VerifyRoutesOptions> = async (app, o) => {
  const run = async (ref: ContractRef, req: Omit<VerifyRequest, "contracts">) =>
    verifyResponseJson(o.db, await o.verify({ ...req, contracts: [ref] }));

  app.post<{ Body: Static<typeof SolidityMultiPartBody> }>(
    "/verifier/solidity/sources::verify-multi-part",
    { schema: schema(SolidityMultiPartBody, "Verify Solidity source files (eth-bytecode-db)") },
    async (req) => {
      const b = req.body;
      // `libraries` (proto-reserved, still sent by Blockscout) is ignored as upstream does: the matching engine
      // finds linked library addresses in the code itself.
      return run(await contractRefFor(o, b), {
        language: "Solidity",
        compiler: b.compilerVersion,
        attempts: solidityMultiPartAttempts(
          {
            sourceFiles: b.sourceFiles,
            evmVersion: b.evmVersion ?? null,
            optimizationRuns: b.optimizationRuns ?? null,
          },
          b.compilerVersion,
        ),
      });
    },
  );
  app.post<{ Body: Static<typeof StandardJsonBody> }>(
    "/verifier/solidity/sources::verify-standard-json",
    { schema: schema(StandardJsonBody, "Verify a Solidity standard JSON input (eth-bytecode-db)") },
    async (req) => {
      const b = req.body;
      const parsed = parseStandardJsonInput(b.input);
      return run(await contractRefFor(o, b), {
        language: "Solidity",
        compiler: b.compilerVersion,
        ...(parsed.ok ? { input: parsed.input } : { inputProblem: parsed.message }),
      });
    },
  );
  app.post<{ Body: Static<typeof VyperMultiPartBody> }>(
    "/verifier/vyper/sources::verify-multi-part",
    { schema: schema(VyperMultiPartBody, "Verify Vyper source files and interfaces (eth-bytecode-db)") },
    async (req) => {
      const b = req.body;
      return run(await contractRefFor(o, b), {
        language: "Vyper",
        compiler: b.compilerVersion,
        input: vyperMultiPartInput({
          sourceFiles: b.sourceFiles,
          interfaces: b.interfaces ?? null,
          evmVersion: b.evmVersion ?? null,
        }),
      });
    },
  );
  app.post<{ Body: Static<typeof StandardJsonBody> }>(
    "/verifier/vyper/sources::verify-standard-json",
    { schema: schema(StandardJsonBody, "Verify a Vyper standard JSON input (eth-bytecode-db)") },
    async (req) => {
      const b = req.body;
      const parsed = parseStandardJsonInput(b.input);
      return run(await contractRefFor(o, b), {
        language: "Vyper",
        compiler: b.compilerVersion,
        ...(parsed.ok
          ? { input: normaliseVyperStandardJson(parsed.input) }
          : { inputProblem: parsed.message }),
      });
    },
  );
  app.post<{ Body: Static<typeof SourcifyVerifyBody> }>(
    "/verifier/sourcify/sources::verify",
    {
      schema: schema(
        SourcifyVerifyBody,
        "Verify metadata.json and sources, Sourcify style (eth-bytecode-db)",
      ),
    },
    async (req) => {
      const b = req.body;
      const built = inputFromSourcifyFiles(b.files, b.chosenContract);
      if (!built.ok) return failure(built.message);
      return run(
        { chainId: b.chain, address: b.address },
        { language: built.language, compiler: built.compiler, input: built.input },
      );
    },
  );
};
