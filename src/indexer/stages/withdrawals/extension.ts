import type { FetchedBlock } from "../../../chain/types.js";
import { toBytea } from "../../../db/bytes.js";
import { command, type Queryable } from "../../../db/db.js";
import type { IndexerExtension } from "../../pipeline/extension.js";

const GWEI = 1_000_000_000n;

export type WithdrawalRow = {
  blockNumber: number;
  index: string;
  validatorIndex: string;
  address: string;
  amount: string;
};

/** Pure: the batch's withdrawals, amounts turned from gwei (as the node gives them) into wei. */
export function deriveWithdrawals(batch: readonly FetchedBlock[]): WithdrawalRow[] {
  return batch.flatMap(({ block }) =>
    (block.withdrawals ?? []).map((w) => ({
      blockNumber: Number(block.number),
      index: BigInt(w.index).toString(),
      validatorIndex: BigInt(w.validatorIndex).toString(),
      address: w.address,
      amount: (BigInt(w.amount) * GWEI).toString(),
    })),
  );
}

async function writeWithdrawals(tx: Queryable, rows: readonly WithdrawalRow[]): Promise<void> {
  if (!rows.length) return;
  await command(
    tx,
    `insert into withdrawals (block_number, index, validator_index, address, amount)
     select * from unnest($1::int8[], $2::int8[], $3::int8[], $4::bytea[], $5::numeric[])`,
    [
      rows.map((r) => r.blockNumber),
      rows.map((r) => r.index),
      rows.map((r) => r.validatorIndex),
      rows.map((r) => toBytea(r.address)),
      rows.map((r) => r.amount),
    ],
  );
}

/** Beacon-chain withdrawals (EIP-4895) of each block, from the block itself. */
export function withdrawalsExtension(): IndexerExtension {
  return {
    id: "withdrawals",
    write: (tx, batch) => writeWithdrawals(tx, deriveWithdrawals(batch)),
    revert: async (tx, ancestor) => {
      await command(tx, "delete from withdrawals where block_number > $1", [ancestor]);
    },
  };
}
