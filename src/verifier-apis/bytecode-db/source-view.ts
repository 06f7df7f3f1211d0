import type { SourceMatch, VerifiedContractRecord } from "../../verifier/store/index.js";
import { compilationSourceFields } from "../../verifier/store/index.js";

/** eth-bytecode-db's `Source` message in proto3 JSON (settings, ABI and artifacts as JSON text). */
export type SourceJson = Omit<SourceMatch, "chainId" | "address">;

/** The `Source` of a verified contract as the store keeps it (what verify and the address lookups answer). */
export function sourceFromRecord(r: VerifiedContractRecord): SourceJson {
  const args =
    r.constructorArguments && r.constructorArguments !== "0x" ? r.constructorArguments.slice(2) : null;
  return {
    ...compilationSourceFields(r),
    // Hex without 0x, as upstream's sources carry it.
    constructorArguments: args,
    matchType: r.matchType === "full" ? "FULL" : "PARTIAL",
    isBlueprint: r.isBlueprint,
    libraries: r.libraries,
  };
}

/** A search hit without where it was found (upstream's `Source` has no chain or address). */
export function sourceFromMatch({ chainId: _c, address: _a, ...source }: SourceMatch): SourceJson {
  return source;
}
