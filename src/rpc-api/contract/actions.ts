import type { Params } from "../../http/etherscan-params.js";
import { hex } from "../hex.js";
import { type ActionParams, PAGE_PARAMS, param } from "../param-spec.js";
import { pageParams, RESULTS_WINDOW, WINDOW_TOO_LARGE } from "../params.js";
import { type Actions, type Answer, fail, ok, type RpcApiDeps } from "../reply.js";
import { type ContractsFilter, type ListedContract, listContracts } from "./query.js";

/** ContractController.contracts_filter: names or their numbers; anything else is a 400. */
const FILTERS: Readonly<Record<string, ContractsFilter>> = {
  verified: "verified",
  "1": "verified",
  unverified: "unverified",
  "2": "unverified",
  empty: "empty",
  "3": "empty",
};

/** AddressController.put_timestamp: unix seconds, anything else ignored. */
function timestamp(raw: string | undefined): Date | null {
  if (raw === undefined || !/^-?\d+$/.test(raw)) return null;
  const d = new Date(Number(raw) * 1000);
  return Number.isNaN(d.getTime()) ? null : d;
}

function optimized(c: ListedContract): boolean {
  const s = c.compiler_settings ?? {};
  return c.language === "Vyper"
    ? s.optimize !== false && s.optimize !== "none"
    : s.optimizer?.enabled === true;
}

/** ContractView's listcontracts item: the ABI as JSON text, or Blockscout's note for an unverified contract. */
function item(c: ListedContract) {
  if (!c.verified) return { Address: hex(c.address), ABI: "Contract source code not verified" };
  return {
    Address: hex(c.address),
    ABI: JSON.stringify(c.abi ?? []),
    ContractName: c.contract_name,
    CompilerVersion: c.compiler_version,
    OptimizationUsed: optimized(c) ? "1" : "0",
  };
}

/**
 * `listcontracts` (page default 1, offset default 10; `filter` verified|unverified|empty or 1|2|3;
 * `verified_at_start_timestamp`/`verified_at_end_timestamp` for verified ones). Blockscout pages with an unbounded
 * SQL offset; here page x offset stays within the results window of the other lists.
 */
async function listcontracts(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const raw = p.get("filter");
  const filter =
    raw === undefined
      ? null
      : Object.hasOwn(FILTERS, raw.toLowerCase())
        ? FILTERS[raw.toLowerCase()]!
        : undefined;
  if (filter === undefined)
    return {
      httpStatus: 400,
      body: fail(
        `${raw} is not a valid value for \`filter\`. Please use one of: verified, unverified, 1, 2.`,
      ),
    };
  const { page, offset } = pageParams(p, { page: 1, offset: 10 });
  if (page * offset > RESULTS_WINDOW) return fail(WINDOW_TOO_LARGE);
  const rows = await listContracts(deps.db, filter, {
    limit: offset,
    offset: (page - 1) * offset,
    verifiedFrom: timestamp(p.get("verified_at_start_timestamp")),
    verifiedTo: timestamp(p.get("verified_at_end_timestamp")),
  });
  return ok(rows.map(item));
}

/** `module=contract` actions beyond the verification module's (src/verifier-apis/etherscan). */
/** The action's parameters (the OpenAPI document's `x-actions`). */
export const contractListParams: ActionParams = {
  listcontracts: [
    {
      ...param.opt(
        "filter",
        "string",
        "verified (1), unverified (2) or empty (3); all contracts when absent",
      ),
      enum: Object.keys(FILTERS),
    },
    ...PAGE_PARAMS,
    param.opt("verified_at_start_timestamp", "integer", "Verified at or after (unix seconds)"),
    param.opt("verified_at_end_timestamp", "integer", "Verified at or before (unix seconds)"),
  ],
};

export const contractListActions: Actions = { listcontracts };
