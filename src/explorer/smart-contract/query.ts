import type { Hex } from "viem";
import { newestCreation } from "../../chain-store/creations.js";
import type { Queryable } from "../../db/db.js";

/** The newest indexed creation of a contract: its creation input and runtime code. */
export async function latestCreationCode(
  db: Queryable,
  address: string,
): Promise<{ initCode: Hex; runtimeCode: Hex | null } | null> {
  const c = await newestCreation(db, address);
  return c && { initCode: c.initCode, runtimeCode: c.runtimeCode };
}
