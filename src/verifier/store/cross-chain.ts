import { lockState } from "../../chain-store/checkpoint.js";
import { fromBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { Hex } from "../matching/index.js";
import { verifyAutomatically } from "./auto-verify.js";

/** Users' verifications read per pass: each costs one index lookup in the chain's creations. */
const PASS_SIZE = 20;

/**
 * Whether users verified anything since this chain's last pass: one index probe, outside any transaction, so a
 * chain with nothing new neither opens a transaction nor waits on its checkpoint row (many chains poll this).
 */
export async function hasNewVerifications(q: Queryable): Promise<boolean> {
  const [row] = await q.query<{ yes: boolean }>(
    `select exists (
       select 1 from verified_contracts
        where id > coalesce((select last_verified_id from cross_chain_verification), 0) and not automatic
     ) as yes`,
  );
  return row?.yes === true;
}

/**
 * Verify once, verified everywhere: the users' verifications stored since this chain's last pass (on any chain of
 * the deployment) are matched against the contracts this chain holds with the same creation code prefix, deployed
 * before the verification (later ones the indexer's verified-contracts stage copies as they come); each match is
 * stored as an automatic verification of this chain, as that stage does. In one transaction holding the
 * checkpoint row, so a batch or a reorg of this chain never runs beside it. Returns how many contracts it verified,
 * or null when there was nothing new.
 */
export async function copyVerificationsToEarlierDeployments(
  tx: Queryable,
  chainId: string,
): Promise<number | null> {
  if (!(await lockState(tx))) return null;
  const [cursor] = await tx.query<{ last_verified_id: number }>(
    "select last_verified_id from cross_chain_verification",
  );
  const after = cursor?.last_verified_id ?? 0;
  const verified = await tx.query<{ id: number; prefix: Uint8Array }>(
    `select id, creation_code_prefix as prefix from verified_contracts
      where id > $1 and not automatic order by id limit ${PASS_SIZE}`,
    [after],
  );
  if (verified.length === 0) return null;
  let copied = 0;
  const seen = new Set<string>();
  for (const v of verified) {
    const key = Buffer.from(v.prefix).toString("hex");
    if (seen.has(key)) continue;
    seen.add(key);
    const creations = await tx.query<{
      address: Uint8Array;
      block_number: number;
      transaction_hash: Uint8Array;
      init_code: Uint8Array;
      runtime_code: Uint8Array;
    }>(
      `select c.address, c.block_number, c.transaction_hash, c.init_code, c.runtime_code
         from contract_creations c
        where substring(c.init_code from 1 for 32) = $1 and c.runtime_code is not null
          and not exists (select 1 from verified_contracts v where v.chain_id = $2 and v.address = c.address)
        order by c.block_number, c.transaction_index, c.creation_index`,
      [Buffer.from(v.prefix), chainId],
    );
    for (const c of creations) {
      const saved = await verifyAutomatically(tx, chainId, {
        address: fromBytea(c.address) as Hex,
        blockNumber: Number(c.block_number),
        transactionHash: fromBytea(c.transaction_hash) as Hex,
        creationInput: fromBytea(c.init_code) as Hex,
        runtimeCode: fromBytea(c.runtime_code).toLowerCase() as Hex,
      });
      if (saved) copied++;
    }
  }
  await tx.query(
    `insert into cross_chain_verification (last_verified_id) values ($1)
     on conflict (only_row) do update set last_verified_id = excluded.last_verified_id`,
    [verified[verified.length - 1]!.id],
  );
  return copied;
}
