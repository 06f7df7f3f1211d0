import type { Address } from "viem";
import type { ExplorerDeps } from "../deps.js";

/**
 * A verified contract's security audit reports. Blockscout keeps those submitted through its AirTable form; Lookout
 * takes no submissions (POST answers 403 as Blockscout's does with the form off), so a verified contract has none.
 * Null for an address that is not a verified contract (404).
 */
export async function auditReports(deps: ExplorerDeps, address: Address) {
  const verified = (await deps.verified?.([address])) ?? new Map();
  return verified.has(address) ? { items: [], next_page_params: null } : null;
}
