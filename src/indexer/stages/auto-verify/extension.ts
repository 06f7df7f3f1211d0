import type { FetchedBlock } from "../../../chain/types.js";
import { indexedChainId } from "../../../chain-store/checkpoint.js";
import { fromBytea } from "../../../db/bytes.js";
import type { Queryable } from "../../../db/db.js";
import type { Hex } from "../../../verifier/matching/index.js";
import { revertAutomaticVerifications, verifyAutomatically } from "../../../verifier/store/index.js";
import type { IndexerExtension } from "../../pipeline/extension.js";
import { mayCreateContracts } from "../core/derive.js";

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
export function automaticVerificationExtension(): IndexerExtension<unknown, boolean> {
  const chainIdOf = async (tx: Queryable) => String(await indexedChainId(tx));
  // Cheap exit first: nothing verified yet, nothing to copy (and the creations' code is not read back).
  const anyVerified = async (tx: Queryable) =>
    (await tx.query("select 1 from verified_contracts where not automatic limit 1")).length > 0;
  // A batch without creations (most of a quiet chain's) needs no statement here.
  const creates = (batch: readonly FetchedBlock[]) => batch.length > 0 && mayCreateContracts(batch);
  return {
    id: "auto-verify",
    prepare: async (tx, batch) => creates(batch) && anyVerified(tx),
    async write(tx, batch, ctx) {
      if (!creates(batch) || !(await (ctx.prepared ?? anyVerified(tx)))) return;
      const from = Number(batch[0]!.block.number);
      const to = Number(batch[batch.length - 1]!.block.number);
      const rows = await tx.query<CreationRow>(
        `select address, block_number, transaction_hash, init_code, runtime_code from contract_creations
         where block_number between $1 and $2 order by block_number, transaction_index, creation_index`,
        [from, to],
      );
      if (rows.length === 0) return;
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
