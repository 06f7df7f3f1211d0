import type { Params } from "../../http/etherscan-params.js";
import { type ActionParams, param } from "../param-spec.js";
import { asAddress } from "../params.js";
import { type Actions, type Answer, fail, ok, type RpcApiDeps } from "../reply.js";
import { tokenByAddress } from "../token/query.js";
import { coinBalanceSum, feesOfDay } from "./query.js";

const WEI_PER_ETHER = 10n ** 18n;

/** A wei amount in ether as Decimal.to_string(:normal) prints it: no exponent, no trailing zeros. */
function ether(wei: string): string {
  const v = BigInt(wei);
  const whole = v / WEI_PER_ETHER;
  const frac = (v % WEI_PER_ETHER).toString().padStart(18, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : String(whole);
}

async function ethsupply(deps: RpcApiDeps): Promise<Answer> {
  return ok(await coinBalanceSum(deps.db, false));
}

/**
 * `ethsupplyexchange`: the coin supply the market source reports, in wei (Blockscout's Chain.total_supply through its
 * default ExchangeRate supply module). Lookout has no market source, so "0", as Blockscout answers without one.
 */
async function ethsupplyexchange(): Promise<Answer> {
  return ok("0");
}

async function coinsupply(deps: RpcApiDeps): Promise<Answer> {
  return ok(ether(await coinBalanceSum(deps.db, true)));
}

/** `tokensupply`; with `cmc=true` the supply in whole tokens as plain text (CoinMarketCap's format, 9 decimals). */
async function tokensupply(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const raw = p.get("contractaddress");
  if (raw === undefined) return fail("Query parameter contract address is required");
  const address = asAddress(raw);
  if (!address) return fail("Invalid contract address format");
  const t = await tokenByAddress(deps.db, address);
  if (!t) return fail("Contract address not found");
  if (p.get("cmc") === "true") {
    const text = t.total_supply === null ? "" : cmcSupply(t.total_supply, Number(t.decimals ?? 0));
    return { httpStatus: 200, body: text, contentType: "text/plain; charset=utf-8" };
  }
  return ok(t.total_supply);
}

/** total / 10^decimals rounded half-up to 9 places, trailing zeros kept as Decimal.round leaves them. */
function cmcSupply(total: string, decimals: number): string {
  const scale = 9;
  const v = BigInt(total) * 10n ** BigInt(scale);
  const d = 10n ** BigInt(decimals);
  const q = (v * 2n + d) / (2n * d);
  const s = q.toString().padStart(scale + 1, "0");
  return `${s.slice(0, -scale)}.${s.slice(-scale)}`;
}

/** Without a price source Blockscout answers its rate fields as null. */
const rates = (prefix: string) => async (): Promise<Answer> =>
  ok({
    [`${prefix}btc`]: null,
    [`${prefix}btc_timestamp`]: null,
    [`${prefix}usd`]: null,
    [`${prefix}usd_timestamp`]: null,
  });

async function totalfees(deps: RpcApiDeps, p: Params): Promise<Answer> {
  const raw = p.get("date");
  if (raw === undefined) return fail("Required date input is missing.");
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== raw)
    return fail("An incorrect input date provided. It should be in ISO 8601 format (yyyy-mm-dd).");
  return ok(await feesOfDay(deps.db, day));
}

/** Each action's parameters (the OpenAPI document's `x-actions`). */
export const statsParams: ActionParams = {
  ethsupply: [],
  ethsupplyexchange: [],
  coinsupply: [],
  tokensupply: [
    param.req("contractaddress", "address", "The token"),
    {
      ...param.opt(
        "cmc",
        "boolean",
        "`true`: the supply in whole tokens as plain text (CoinMarketCap's format)",
      ),
      enum: ["true", "false"],
    },
  ],
  ethprice: [],
  coinprice: [],
  totalfees: [param.req("date", "string", "The day (yyyy-mm-dd)")],
};

export const statsActions: Actions = {
  ethsupply,
  ethsupplyexchange,
  coinsupply,
  tokensupply,
  ethprice: rates("eth"),
  coinprice: rates("coin_"),
  totalfees,
};
