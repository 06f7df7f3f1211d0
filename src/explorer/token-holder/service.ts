import type { Address } from "viem";
import { fromBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import type { ExplorerDeps } from "../deps.js";
import { addressObjectsFromColumns } from "../objects/address-facts.js";
import { page } from "../paging.js";
import { tokenType } from "../token/query.js";
import { type HolderCursor, holdersPage, instanceHoldersPage } from "./query.js";
import { holdersCursor, holderView } from "./view.js";

/** GET /tokens/{h}/holders; null when the token is unknown. ERC-1155 holdings are per id. */
export async function tokenHolders(
  db: Queryable,
  token: Address,
  cursor: HolderCursor | null,
  deps: Omit<ExplorerDeps, "db">,
) {
  // One statement: the token's type, the page and its holders' address facts.
  const found = await holdersPage(db, token, cursor);
  if (!found) return null;
  return page({
    rows: found.rows,
    cursor: holdersCursor,
    render: async (rows) => {
      const addresses = await addressObjectsFromColumns(
        rows.map((r) => [r.holder, r] as const),
        deps,
      );
      return rows.map((r) => holderView(r, addresses));
    },
  });
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
  return page({
    rows: await instanceHoldersPage(db, token, tokenId, cursor),
    cursor: holdersCursor,
    addressesOf: (rows) => rows.map((r) => fromBytea(r.holder)),
    deps: { ...deps, db },
    render: (rows, addresses) => rows.map((r) => holderView(r, addresses)),
  });
}
