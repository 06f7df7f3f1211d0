import type { Queryable } from "../../db/db.js";
import {
  type ContractMatch,
  decodeOnchain,
  type Hex,
  matchContract,
  selectBestMatch,
} from "../matching/index.js";
import { candidatesFor } from "./search.js";
import type { VerifiedContractRecord } from "./types.js";
import { saveVerifiedContract } from "./verified-contracts.js";

export type NewContract = {
  address: Hex;
  blockNumber: number;
  transactionHash: Hex;
  creationInput: Hex;
  runtimeCode: Hex;
};

/**
 * Verifies a newly created contract from the store: when its code equals a verified contract's apart from auxdata,
 * immutables, libraries and constructor arguments (the matching engine decides, as for a user's request), a copy
 * of that verification is stored for it, marked automatic. Returns the stored copy, or null.
 */
export async function verifyAutomatically(
  db: Queryable,
  chainId: string,
  c: NewContract,
): Promise<VerifiedContractRecord | null> {
  if (c.runtimeCode === "0x") return null;
  const onchain = decodeOnchain({ runtimeCode: c.runtimeCode, creationInput: c.creationInput });
  const seen = new Set<string>();
  const tried: Array<{ r: VerifiedContractRecord; m: ContractMatch }> = [];
  for (const type of ["CREATION_INPUT", "DEPLOYED_BYTECODE"] as const) {
    const code = type === "CREATION_INPUT" ? c.creationInput : c.runtimeCode;
    for (const r of await candidatesFor(db, code, type)) {
      const key = `${r.chainId}:${r.address}`;
      if (seen.has(key) || (r.chainId === chainId && r.address === c.address)) continue;
      seen.add(key);
      tried.push({ r, m: matchContract(r.compiled, onchain) });
    }
  }
  const best = selectBestMatch(tried.map((t) => t.m));
  if (!best) return null;
  const { r } = tried[best.index]!;
  const m = best.result;
  const saved = await saveVerifiedContract(db, {
    ...r,
    chainId,
    address: c.address,
    matchType: m.matchType!,
    creationMatch: m.creationMatch.type,
    runtimeMatch: m.runtimeMatch.type,
    automatic: true,
    blockNumber: c.blockNumber,
    verifiedFrom: { chainId: r.chainId, address: r.address },
    constructorArguments: m.constructorArguments?.encoded ?? null,
    libraries: {
      ...r.libraries,
      ...(m.creationMatch.values.libraries ?? {}),
      ...(m.runtimeMatch.values.libraries ?? {}),
    },
    creationTransformations: m.creationMatch.match ? m.creationMatch.transformations : null,
    creationValues: m.creationMatch.match ? m.creationMatch.values : null,
    runtimeTransformations: m.runtimeMatch.match ? m.runtimeMatch.transformations : null,
    runtimeValues: m.runtimeMatch.match ? m.runtimeMatch.values : null,
    isBlueprint: m.isBlueprint,
    onchainCreationCode: c.creationInput,
    onchainRuntimeCode: c.runtimeCode,
    creationTransactionHash: c.transactionHash,
  });
  return saved.outcome === "stored" ? saved.record : null;
}
