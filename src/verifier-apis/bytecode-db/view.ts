import type { Queryable } from "../../db/db.js";
import type { VerifyResponse } from "../../verifier/service/index.js";
import type { SourceMatch, VerifiedContractRecord } from "../../verifier/store/index.js";
import { compilationSourceFields, getVerifiedContract } from "../../verifier/store/index.js";

/** eth-bytecode-db's `Source` message in proto3 JSON (settings, ABI and artifacts as JSON text). */
export type SourceJson = Omit<SourceMatch, "chainId" | "address">;

/** The members in the order of the `Source` schema (schemas.ts), the order clients have always been sent. */
function ordered(s: SourceJson): SourceJson {
  return {
    fileName: s.fileName,
    contractName: s.contractName,
    compilerVersion: s.compilerVersion,
    compilerSettings: s.compilerSettings,
    sourceType: s.sourceType,
    sourceFiles: s.sourceFiles,
    abi: s.abi,
    constructorArguments: s.constructorArguments,
    matchType: s.matchType,
    compilationArtifacts: s.compilationArtifacts,
    creationInputArtifacts: s.creationInputArtifacts,
    deployedBytecodeArtifacts: s.deployedBytecodeArtifacts,
    isBlueprint: s.isBlueprint,
    libraries: s.libraries,
  };
}

/** The `Source` of a verified contract as the store keeps it (what verify and the address lookups answer). */
export function sourceFromRecord(r: VerifiedContractRecord): SourceJson {
  const args =
    r.constructorArguments && r.constructorArguments !== "0x" ? r.constructorArguments.slice(2) : null;
  return ordered({
    ...compilationSourceFields(r),
    // Hex without 0x, as upstream's sources carry it.
    constructorArguments: args,
    matchType: r.matchType === "full" ? "FULL" : "PARTIAL",
    isBlueprint: r.isBlueprint,
    libraries: r.libraries,
  });
}

/** A search hit without where it was found (upstream's `Source` has no chain or address). */
export function sourceFromMatch({ chainId: _c, address: _a, ...source }: SourceMatch): SourceJson {
  return ordered(source);
}

type VerifyJson = { message: string; status: "SUCCESS" | "FAILURE"; source?: SourceJson };

export const failure = (message: string): VerifyJson => ({ message, status: "FAILURE" });

/**
 * eth-bytecode-db's VerifyResponse for one contract: SUCCESS with the source these sources verified (its match
 * type theirs, also when the store keeps a full match against their partial one), or FAILURE with why (upstream
 * answers both with HTTP 200).
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
      // Sources that match partially where a full match is kept: the answer is the source sent, PARTIAL, as
      // eth-bytecode-db answers with the source it verified.
      if (item.sent) return { message: item.message, status: "SUCCESS", source: sourceFromRecord(item.sent) };
      const record = await getVerifiedContract(db, item.chainId, item.address);
      if (!record) throw new Error(`verified contract ${item.chainId}/${item.address} is not in the store`);
      return { message: "OK", status: "SUCCESS", source: sourceFromRecord(record) };
    }
  }
}
