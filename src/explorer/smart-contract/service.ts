import type { Queryable } from "../../db/db.js";
import { getVerifiedContract } from "../../verifier/store/index.js";
import { indexedChainId } from "../transaction/query.js";
import { latestCreationCode } from "./query.js";
import { smartContractView, unverifiedContractView } from "./view.js";

/**
 * GET /smart-contracts/{h}: verified source, ABI, compiler, settings, match type and constructor arguments from our
 * verified-contract store; code only for an unverified contract we indexed; null for neither.
 */
export async function smartContract(db: Queryable, address: string) {
  const chainId = await indexedChainId(db);
  if (chainId) {
    const record = await getVerifiedContract(db, chainId, address);
    if (record) return smartContractView(record);
  }
  const created = await latestCreationCode(db, address);
  return created ? unverifiedContractView(created.runtimeCode, created.initCode) : null;
}
