import type { Hex } from "viem";
import type { Queryable } from "../../db/db.js";
import { getVerifiedContract } from "../../verifier/store/index.js";
import type { VerifiedContractLookup } from "../objects/verified-store.js";
import { indexedChainId } from "../objects/verified-store.js";
import { abiMethodFlags, contractFacts } from "./details.js";
import { latestCreationCode } from "./query.js";
import { smartContractView, unverifiedContractView } from "./view.js";

/**
 * GET /smart-contracts/{h}: verified source, ABI, compiler, settings, match type and constructor arguments from our
 * verified-contract store; code only for an unverified contract we indexed; null for neither. Both carry the
 * contract's facts (creation status, proxy, implementations) and the read/write method flags.
 */
export async function smartContract(db: Queryable, address: string, verified?: VerifiedContractLookup) {
  const chainId = await indexedChainId(db);
  if (chainId) {
    const record = await getVerifiedContract(db, chainId, address);
    if (record) {
      const view = smartContractView(record);
      const facts = await contractFacts(db, chainId, address as Hex, verified, record.onchainRuntimeCode);
      return { ...view, ...facts, ...abiMethodFlags(view.abi) };
    }
  }
  const created = await latestCreationCode(db, address);
  if (!created) return null;
  const facts = await contractFacts(db, chainId ?? "0", address as Hex, verified, created.runtimeCode);
  return {
    ...unverifiedContractView(created.runtimeCode, created.initCode),
    ...facts,
    ...abiMethodFlags(null),
  };
}
