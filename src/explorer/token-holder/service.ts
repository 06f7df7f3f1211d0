import type { Address } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { ExplorerDeps } from "../deps.js";
import { addressObjectsFromColumns, loadAddressObjects } from "../objects/address-facts.js";
import {
  type HolderCursor,
  type HolderRow,
  holdersPage,
  instanceHoldersPage,
  PAGE_SIZE,
  tokenType,
} from "./query.js";
import { holdersView } from "./view.js";

async function render(db: Queryable, rows: readonly HolderRow[], deps: Omit<ExplorerDeps, "db">) {
  const addresses = await loadAddressObjects(
    db,
    rows.slice(0, PAGE_SIZE).map((r) => fromBytea(r.holder)),
    deps,
  );
  return holdersView(rows, PAGE_SIZE, addresses);
}

/** GET /tokens/{h}/holders; null when the token is unknown. ERC-1155 holdings are per id. */
export async function tokenHolders(
  db: Queryable,
  token: Address,
  cursor: HolderCursor | null,
  deps: Omit<ExplorerDeps, "db">,
) {
  // One statement: the token's type, the page and its holders' address facts.
  const page = await holdersPage(db, token, cursor);
  if (!page) return null;
  const addresses = await addressObjectsFromColumns(
    page.rows.slice(0, PAGE_SIZE).map((r) => ({ address: fromBytea(r.holder), facts: r })),
    deps,
  );
  return holdersView(page.rows, PAGE_SIZE, addresses);
}

/** GET /tokens/{h}/instances/{id}/holders; null when the token is unknown or an ERC-20 (upstream's 404). */
export async function tokenInstanceHolders(
  db: Queryable,
  token: Address,
  tokenId: bigint,
  cursor: HolderCursor | null,
  deps: Omit<ExplorerDeps, "db">,
) {
  const type = await tokenType(db, token);
  if (type === null || type === "ERC-20") return null;
  return render(db, await instanceHoldersPage(db, token, tokenId, cursor), deps);
}
