import { Type } from "@sinclair/typebox";
import { InvalidInputError } from "../../errors/base.js";
import { dialectScope } from "../../http/scope.js";
import { ADDRESS_RE, type VerifierApi } from "../../verifier/api.js";
import type { VerifyRequest } from "../../verifier/service/index.js";
import { getVerifiedContract, searchSourcesByBytecode } from "../../verifier/store/index.js";
import type { VerifierDialect } from "../dialect.js";
import {
  type Chains,
  chainIdFor,
  contractRefFor,
  hex,
  solidityMultiPartBody,
  sourcifyFilesRequest,
  standardJsonBody,
  vyperMultiPartBody,
} from "./parse.js";
import {
  ChainAddressBody,
  ErrorBody,
  SearchAllBody,
  SearchBody,
  SearchResponse,
  SolidityMultiPartBody,
  Source,
  SourcifyVerifyBody,
  StandardJsonBody,
  VerifyResponse,
  VyperMultiPartBody,
} from "./schemas.js";
import { failure, type SourceJson, sourceFromMatch, sourceFromRecord, verifyResponseJson } from "./view.js";

const NO_CHAINS: Chains = new Map();
const tags = ["eth-bytecode-db"];
const schema = <B, R>(body: B, response: R, summary: string) => ({
  tags,
  summary,
  body,
  response: { 200: response, 400: ErrorBody },
});
const Versions = Type.Object({ compilerVersions: Type.Array(Type.String()) });

/**
 * eth-bytecode-db's v2 API (blockscout-rs), which Blockscout's backend calls with
 * MICROSERVICE_SC_VERIFIER_TYPE=eth_bytecode_db: verification, compiler lists and source search over Lookout's
 * own verifier and store. Registered under `/api/v2` beside the explorer routes; errors are actix-prost's
 * `{code, message}` (bad input 400 code 3), the same dialect as `/api/v1`.
 */
export const bytecodeDbPlugin: VerifierDialect["plugin"] = async (app, { db, api, dialect }) => {
  dialectScope(app, dialect);
  // Read per request: the indexed chain may join the verifier's chains after start.
  const chains = () => api?.chains ?? NO_CHAINS;

  // The Database service's searches: by bytecode over every verified contract, or by (chain, address).
  const byBytecode = async (bytecode: string, type: "CREATION_INPUT" | "DEPLOYED_BYTECODE") =>
    (await searchSourcesByBytecode(db, hex(bytecode), type)).map(sourceFromMatch);
  // The contract verified at (chain, address) in our store: what Sourcify and the Verifier Alliance answer by
  // address, and Lookout is its own Sourcify-compatible repository.
  const byAddress = async (chain: string, address: string): Promise<SourceJson[]> => {
    if (!ADDRESS_RE.test(address.startsWith("0x") ? address : `0x${address}`))
      throw new InvalidInputError(`Invalid address: ${address}`, { field: "address" });
    const record = await getVerifiedContract(db, chainIdFor(chains(), chain), hex(address));
    return record ? [sourceFromRecord(record)] : [];
  };

  // A literal colon is `::` in a Fastify path (a single one starts a parameter).
  app.post(
    "/bytecodes/sources::search",
    { schema: schema(SearchBody, SearchResponse, "Verified sources matching a bytecode") },
    async (req) => ({ sources: await byBytecode(req.body.bytecode, req.body.bytecodeType) }),
  );
  app.post(
    "/bytecodes/sources::search-all",
    {
      schema: schema(
        SearchAllBody,
        Type.Object({
          ethBytecodeDbSources: Type.Array(Source),
          sourcifySources: Type.Array(Source),
          allianceSources: Type.Array(Source),
        }),
        "Verified sources matching a bytecode, by origin",
      ),
    },
    // Every match is Lookout's own: Blockscout labels the other two lists as imported from Sourcify or the
    // Verifier Alliance, which they are not.
    async (req) => ({
      ethBytecodeDbSources: await byBytecode(req.body.bytecode, req.body.bytecodeType),
      sourcifySources: [],
      allianceSources: [],
    }),
  );
  app.post(
    "/bytecodes/sources::search-sourcify",
    { schema: schema(ChainAddressBody, SearchResponse, "The source verified at a chain and address") },
    async (req) => ({ sources: await byAddress(req.body.chain, req.body.address) }),
  );
  app.post(
    "/bytecodes/sources::search-alliance",
    { schema: schema(ChainAddressBody, SearchResponse, "The source verified at a chain and address") },
    async (req) => ({ sources: await byAddress(req.body.chain, req.body.address) }),
  );

  if (!api) return;
  const verify = api.verify;
  if (verify) verifyRoutes(verify);
  const { compilers } = api;
  const versions = (list: () => Array<{ version: string }>) => async () => {
    await compilers.settled?.();
    return { compilerVersions: list().map((c) => c.version) };
  };
  const versionsSchema = { tags, response: { 200: Versions, 400: ErrorBody } };
  app.get(
    "/verifier/solidity/versions",
    { schema: versionsSchema },
    versions(() => compilers.listSolidity()),
  );
  app.get(
    "/verifier/vyper/versions",
    { schema: versionsSchema },
    versions(() => compilers.listVyper()),
  );

  function verifyRoutes(verify: NonNullable<VerifierApi["verify"]>) {
    // The verify routes of eth-bytecode-db's SolidityVerifier, VyperVerifier and SourcifyVerifier services.
    const run = async (ref: VerifyRequest["contracts"][number], body: Omit<VerifyRequest, "contracts">) =>
      verifyResponseJson(db, await verify({ ...body, contracts: [ref] }));
    const target = (b: Parameters<typeof contractRefFor>[1]) => contractRefFor({ db, chains: chains() }, b);

    app.post(
      "/verifier/solidity/sources::verify-multi-part",
      {
        schema: schema(
          SolidityMultiPartBody,
          VerifyResponse,
          "Verify Solidity source files (eth-bytecode-db)",
        ),
      },
      async (req) => run(await target(req.body), solidityMultiPartBody(req.body)),
    );
    app.post(
      "/verifier/solidity/sources::verify-standard-json",
      {
        schema: schema(
          StandardJsonBody,
          VerifyResponse,
          "Verify a Solidity standard JSON input (eth-bytecode-db)",
        ),
      },
      async (req) => run(await target(req.body), standardJsonBody("Solidity", req.body)),
    );
    app.post(
      "/verifier/vyper/sources::verify-multi-part",
      {
        schema: schema(
          VyperMultiPartBody,
          VerifyResponse,
          "Verify Vyper source files and interfaces (eth-bytecode-db)",
        ),
      },
      async (req) => run(await target(req.body), vyperMultiPartBody(req.body)),
    );
    app.post(
      "/verifier/vyper/sources::verify-standard-json",
      {
        schema: schema(
          StandardJsonBody,
          VerifyResponse,
          "Verify a Vyper standard JSON input (eth-bytecode-db)",
        ),
      },
      async (req) => run(await target(req.body), standardJsonBody("Vyper", req.body)),
    );
    app.post(
      "/verifier/sourcify/sources::verify",
      {
        schema: schema(
          SourcifyVerifyBody,
          VerifyResponse,
          "Verify metadata.json and sources, Sourcify style (eth-bytecode-db)",
        ),
      },
      async (req) => {
        const built = sourcifyFilesRequest(req.body);
        if (!built.ok) return failure(built.message);
        return verifyResponseJson(db, await verify(built.request));
      },
    );
  }
};
