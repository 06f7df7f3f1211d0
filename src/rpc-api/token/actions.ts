import type { Params } from "../../http/etherscan-params.js";
import { hex } from "../hex.js";
import { type ActionParams, PAGE_PARAMS, param } from "../param-spec.js";
import { asAddress, pageParams, RESULTS_WINDOW, WINDOW_TOO_LARGE } from "../params.js";
import { type Actions, type Answer, fail, ok, type RpcApiDeps } from "../reply.js";
import { tokenByAddress, tokenHolders } from "./query.js";

const REQUIRED = "Query parameter contract address is required";
const INVALID = "Invalid contract address hash";

async function getToken(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const raw = p.get("contractaddress");
  if (raw === undefined) return fail(REQUIRED);
  const address = asAddress(raw);
  if (!address) return fail(INVALID);
  const t = await tokenByAddress(deps.db, address);
  if (!t) return fail("Contract address not found");
  return ok({
    type: t.type,
    name: t.name,
    symbol: t.symbol,
    totalSupply: t.total_supply ?? "",
    decimals: t.decimals ?? "",
    contractAddress: hex(t.address),
    cataloged: t.cataloged,
  });
}

/**
 * `getTokenHolders` (page default 1, offset default 10). Blockscout leaves the page unbounded; here page x offset
 * is bounded by the same results window as the account lists, so no request scans past 10,000 holders.
 */
async function getTokenHolders(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const { page, offset } = pageParams(p, { page: 1, offset: 10 });
  const raw = p.get("contractaddress");
  if (raw === undefined) return fail(REQUIRED);
  const address = asAddress(raw);
  if (!address) return fail(INVALID);
  if (page * offset > RESULTS_WINDOW) return fail(WINDOW_TOO_LARGE);
  const t = await tokenByAddress(deps.db, address);
  if (!t) return ok([]);
  const rows = await tokenHolders(deps.db, address, t.type, page, offset);
  return ok(rows.map((r) => ({ address: hex(r.holder), value: r.value })));
}

/** Each action's parameters (the OpenAPI document's `x-actions`). */
export const tokenParams: ActionParams = {
  gettoken: [param.req("contractaddress", "address", "The token")],
  gettokenholders: [param.req("contractaddress", "address", "The token"), ...PAGE_PARAMS],
};

export const tokenActions: Actions = { gettoken: getToken, gettokenholders: getTokenHolders };
