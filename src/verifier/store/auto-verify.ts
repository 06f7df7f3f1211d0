import { fromBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { IndexerExtension } from "../../indexer/extension.js";
import { type ContractMatch, type Hex, matchContract, selectBestMatch } from "../matching/index.js";
import { candidatesFor } from "./search.js";
import type { VerifiedContractRecord } from "./types.js";
import { revertAutomaticVerifications, saveVerifiedContract } from "./verified-contracts.js";

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
  const onchain = { runtimeCode: c.runtimeCode, creationInput: c.creationInput };
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

type CreationRow = {
  address: Uint8Array;
  block_number: number;
  transaction_hash: Uint8Array;
  init_code: Uint8Array;
  runtime_code: Uint8Array | null;
};

/**
 * The indexer part that verifies new contracts automatically, in the batch transaction: the copies commit and
 * revert with the blocks that created the contracts.
 */
export function automaticVerificationExtension(): IndexerExtension {
  const chainIdOf = async (tx: Queryable) =>
    String(
      (await tx.query<{ chain_id: number }>("select chain_id from indexer_state where id = 1"))[0]?.chain_id,
    );
  return {
    name: "verified-contracts",
    async write(tx, batch, ctx) {
      if (batch.length === 0) return;
      const from = Number(batch[0]!.block.number);
      const to = Number(batch[batch.length - 1]!.block.number);
      const rows = await tx.query<CreationRow>(
        `select address, block_number, transaction_hash, init_code, runtime_code from contract_creations
         where block_number between $1 and $2 order by block_number, transaction_index, creation_index`,
        [from, to],
      );
      if (rows.length === 0) return;
      // Cheap exit: nothing verified yet, nothing to copy.
      const [any] = await tx.query("select 1 from verified_contracts where not automatic limit 1");
      if (!any) return;
      const chainId = await chainIdOf(tx);
      for (const row of rows) {
        const address = fromBytea(row.address);
        const runtimeCode =
          row.runtime_code !== null
            ? fromBytea(row.runtime_code)
            : await ctx.rpc.request<Hex>("eth_getCode", [
                address,
                `0x${Number(row.block_number).toString(16)}`,
              ]);
        await verifyAutomatically(tx, chainId, {
          address,
          blockNumber: Number(row.block_number),
          transactionHash: fromBytea(row.transaction_hash),
          creationInput: fromBytea(row.init_code),
          runtimeCode: runtimeCode.toLowerCase() as Hex,
        });
      }
    },
    async revert(tx, ancestor) {
      await revertAutomaticVerifications(tx, await chainIdOf(tx), ancestor);
    },
  };
}
