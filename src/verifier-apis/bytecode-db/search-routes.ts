import { type Static, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import type { ChainConfig } from "../../config/chains.js";
import type { Queryable } from "../../db/db.js";
import { InvalidInputError } from "../../errors/base.js";
import type { Hex } from "../../verifier/matching/index.js";
import { getVerifiedContract, searchSourcesByBytecode } from "../../verifier/store/index.js";
import { ChainAddressBody, ErrorBody, SearchAllBody, SearchBody, SearchResponse, Source } from "./schemas.js";
import { type SourceJson, sourceFromMatch, sourceFromRecord } from "./source-view.js";
import { chainIdFor } from "./target.js";

export type SearchRoutesOptions = { db: Queryable; chains: readonly ChainConfig[] };

const hex = (s: string) => (s.startsWith("0x") ? s : `0x${s}`).toLowerCase() as Hex;

const schema = (body: unknown, response: unknown, summary: string) => ({
  tags: ["eth-bytecode-db"],
  summary,
  body,
  response: { 200: response, 400: ErrorBody },
});

/** The Database service's searches: by bytecode over every verified contract, or by (chain, address). */
export const searchRoutes: FastifyPluginAsync<SearchRoutesOptions> = async (app, { db, chains }) => {
  const byBytecode = async (bytecode: string, type: "CREATION_INPUT" | "DEPLOYED_BYTECODE") =>
    (await searchSourcesByBytecode(db, hex(bytecode), type)).map(sourceFromMatch);

  // The contract verified at (chain, address) in our store: what Sourcify and the Verifier Alliance answer by
  // address, and Lookout is its own Sourcify-compatible repository.
  const byAddress = async (chain: string, address: string): Promise<SourceJson[]> => {
    if (!/^(0x)?[0-9a-fA-F]{40}$/.test(address))
      throw new InvalidInputError(`Invalid address: ${address}`, { field: "address" });
    const record = await getVerifiedContract(db, chainIdFor(chains, chain), hex(address));
    return record ? [sourceFromRecord(record)] : [];
  };

  app.post<{ Body: Static<typeof SearchBody> }>(
    "/bytecodes/sources::search",
    { schema: schema(SearchBody, SearchResponse, "Verified sources matching a bytecode") },
    async (req) => ({ sources: await byBytecode(req.body.bytecode, req.body.bytecodeType) }),
  );
  app.post<{ Body: Static<typeof SearchAllBody> }>(
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
  app.post<{ Body: Static<typeof ChainAddressBody> }>(
    "/bytecodes/sources::search-sourcify",
    { schema: schema(ChainAddressBody, SearchResponse, "The source verified at a chain and address") },
    async (req) => ({ sources: await byAddress(req.body.chain, req.body.address) }),
  );
  app.post<{ Body: Static<typeof ChainAddressBody> }>(
    "/bytecodes/sources::search-alliance",
    { schema: schema(ChainAddressBody, SearchResponse, "The source verified at a chain and address") },
    async (req) => ({ sources: await byAddress(req.body.chain, req.body.address) }),
  );
};
