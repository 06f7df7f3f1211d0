import type { Hex } from "viem";
import { fromBytea, fromByteaOrNull, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";

/** The newest indexed creation of a contract: its creation input and runtime code. */
export async function latestCreationCode(
  db: Queryable,
  address: string,
): Promise<{ initCode: Hex; runtimeCode: Hex | null } | null> {
  const [created] = await db.query<{ init_code: Uint8Array; runtime_code: Uint8Array | null }>(
    "select init_code, runtime_code from contract_creations where address = $1 order by block_number desc limit 1",
    [toBytea(address)],
  );
  if (!created) return null;
  return { initCode: fromBytea(created.init_code), runtimeCode: fromByteaOrNull(created.runtime_code) };
}
