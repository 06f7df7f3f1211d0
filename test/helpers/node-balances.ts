import type { Address, Hex } from "viem";
import { fromBytea } from "../../src/db/bytes.js";
import type { Db } from "../../src/db/db.js";
import { rpc } from "./activity.js";

export type BalanceRow = { address: Address; block_number: number; value: string };

/** Every coin_balance_changes row, oldest block first. */
export async function balanceRows(db: Db): Promise<BalanceRow[]> {
  const rows = await db.query<{ address: Uint8Array; block_number: number; value: string }>(
    "select address, block_number, value::text as value from coin_balance_changes order by block_number, address",
  );
  return rows.map((r) => ({
    address: fromBytea(r.address) as Address,
    block_number: Number(r.block_number),
    value: r.value,
  }));
}

/** Rows whose value is not the node's balance at their block, with the node's balance beside (20 reads at once). */
export async function wrongRows(url: string, rows: BalanceRow[]) {
  const wrong: Array<BalanceRow & { node: string }> = [];
  for (let i = 0; i < rows.length; i += 20) {
    const part = rows.slice(i, i + 20);
    const node = await Promise.all(
      part.map((r) => rpc<Hex>(url, "eth_getBalance", [r.address, `0x${r.block_number.toString(16)}`])),
    );
    part.forEach((r, j) => {
      const v = BigInt(node[j]!).toString();
      if (v !== r.value) wrong.push({ ...r, node: v });
    });
  }
  return wrong;
}
