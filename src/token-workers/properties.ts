import type { Address, Hex } from "viem";
import type { Rpc } from "../chain/rpc.js";
import { fromBytea, toBytea } from "../db/bytes.js";
import type { Queryable } from "../db/db.js";
import { decodeBoolResult, decodeStringResult, decodeUintResult, INTERFACE_IDS, SELECTORS } from "./calls.js";

export type TokenProperties = {
  name: string | null;
  symbol: string | null;
  decimals: string | null;
  totalSupply: string | null;
  /** The contract's ERC-165 answer for its type's interface; null when it does not answer (or the type has none). */
  erc165: boolean | null;
};

const call = (rpc: Rpc, to: Address, data: string) =>
  rpc.request<Hex>("eth_call", [{ to, data }, "latest"]).catch(() => null);

/** name, symbol, decimals, totalSupply and the ERC-165 check by eth_call; a call that fails gives null. */
export async function fetchTokenProperties(
  rpc: Rpc,
  address: Address,
  type: string,
): Promise<TokenProperties> {
  const iface = INTERFACE_IDS[type as keyof typeof INTERFACE_IDS];
  const [name, symbol, decimals, totalSupply, erc165] = await Promise.all([
    call(rpc, address, SELECTORS.name),
    call(rpc, address, SELECTORS.symbol),
    // Upstream shows decimals only for fungible tokens (ERC-20, ERC-404).
    type === "ERC-20" || type === "ERC-404" ? call(rpc, address, SELECTORS.decimals) : null,
    call(rpc, address, SELECTORS.totalSupply),
    iface ? call(rpc, address, `${SELECTORS.supportsInterface}${iface.slice(2).padEnd(64, "0")}`) : null,
  ]);
  return {
    name: decodeStringResult(name),
    symbol: decodeStringResult(symbol),
    decimals: decodeUintResult(decimals),
    totalSupply: decodeUintResult(totalSupply),
    erc165: decodeBoolResult(erc165),
  };
}

/**
 * Fetches properties of tokens never fetched, and total supply of tokens whose supply went stale (a mint or burn).
 * Returns how many tokens it handled; `onSupply` hears each total supply stored (the socket's `total_supply`).
 */
export async function refreshTokenProperties(
  db: Queryable,
  rpc: Rpc,
  limit = 50,
  onSupply?: (token: Address, totalSupply: string) => void,
): Promise<number> {
  // Claimed for a minute so workers of several processes do not call the same token at once; a worker that
  // dies leaves the claim to run out.
  const due = await db.query<{ address: Uint8Array; type: string; fetched: boolean }>(
    `update tokens t set properties_claimed_until = now() + interval '1 minute'
     from (select address from tokens
           where (properties_fetched_at is null or supply_stale)
             and (properties_claimed_until is null or properties_claimed_until < now())
           limit $1 for update skip locked) d
     where t.address = d.address
     returning t.address, t.type, t.properties_fetched_at is not null as fetched`,
    [limit],
  );
  await Promise.all(
    due.map(async (t) => {
      const address = fromBytea(t.address);
      if (t.fetched) {
        const supply = decodeUintResult(await call(rpc, address, SELECTORS.totalSupply));
        await db.query(
          "update tokens set total_supply = $2, supply_stale = false, properties_claimed_until = null where address = $1",
          [toBytea(address), supply],
        );
        if (supply !== null) onSupply?.(address, supply);
        return;
      }
      const p = await fetchTokenProperties(rpc, address, t.type);
      await db.query(
        `update tokens set name = $2, symbol = $3, decimals = $4, total_supply = $5, erc165_confirmed = $6,
           properties_fetched_at = now(), supply_stale = false, properties_claimed_until = null
         where address = $1`,
        [toBytea(address), p.name, p.symbol, p.decimals, p.totalSupply, p.erc165],
      );
      if (p.totalSupply !== null) onSupply?.(address, p.totalSupply);
    }),
  );
  return due.length;
}
