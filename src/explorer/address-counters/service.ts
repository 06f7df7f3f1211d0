import type { Address } from "viem";
import type { Queryable } from "../../db/db.js";
import { tokenBalancesCountUpTo } from "../token-balance/query.js";
import { addressCounters } from "./query.js";
import { countersView, TAB_COUNTER_CAP, tabsCountersView } from "./view.js";

/** `/addresses/{h}/counters`: the indexer's counters, O(1); zeros for an address never seen (as Blockscout). */
export async function addressCountersPage(db: Queryable, address: Address) {
  return countersView(await addressCounters(db, address));
}

/** `/addresses/{h}/tabs-counters`. */
export async function addressTabsCounters(db: Queryable, address: Address) {
  const [row, balances] = await Promise.all([
    addressCounters(db, address),
    tokenBalancesCountUpTo(db, address, TAB_COUNTER_CAP),
  ]);
  return tabsCountersView(row, balances);
}
