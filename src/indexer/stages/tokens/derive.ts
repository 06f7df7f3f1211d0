import type { Address } from "viem";
import { type TokenType, ZERO_ADDRESS } from "../core/token-decode.js";
import type { TransferRow } from "../core/token-logs.js";

export type HoldingDelta = {
  holder: Address;
  tokenType: TokenType;
  token: Address;
  tokenId: bigint;
  delta: bigint;
};
export type FungibleDelta = { holder: Address; token: Address; delta: bigint };
export type OwnerKey = { token: Address; tokenId: bigint };

export type HoldingChanges = {
  /** ERC-1155 / ERC-404 per-id balance changes, summed per key; zero sums dropped. */
  holdings: HoldingDelta[];
  /** ERC-20 / ERC-404 fungible balance changes. */
  fungible: FungibleDelta[];
  /** ERC-721 ids whose owner changed, with the new owner (last transfer wins; null = burned). */
  owners: Array<OwnerKey & { owner: Address | null }>;
  /** ERC-721 ids held per holder (the token's balanceOf), +1 to the receiver and -1 to the sender of each id. */
  erc721Counts?: FungibleDelta[];
};

/**
 * What a run of transfers does to the holdings; `sign` -1 gives the inverse (a reorg undoing them).
 * The zero address is never a holder: mints and burns change only the other side. Pure.
 */
export function holdingChanges(transfers: readonly TransferRow[], sign: 1n | -1n = 1n): HoldingChanges {
  const per = new Map<string, HoldingDelta>();
  const fung = new Map<string, FungibleDelta>();
  const owners = new Map<string, OwnerKey & { owner: Address | null }>();
  const counts = new Map<string, FungibleDelta>();
  const addHolding = (holder: Address, t: TransferRow, delta: bigint) => {
    if (holder === ZERO_ADDRESS || delta === 0n) return;
    const k = `${holder}|${t.kind}|${t.token}|${t.tokenId}`;
    const cur = per.get(k);
    if (cur) cur.delta += delta;
    else per.set(k, { holder, tokenType: t.kind, token: t.token, tokenId: t.tokenId!, delta });
  };
  const addFungible = (holder: Address, token: Address, delta: bigint, into = fung) => {
    if (holder === ZERO_ADDRESS || delta === 0n) return;
    const k = `${holder}|${token}`;
    const cur = into.get(k);
    if (cur) cur.delta += delta;
    else into.set(k, { holder, token, delta });
  };
  for (const t of transfers) {
    if (t.tokenId === null) {
      addFungible(t.from, t.token, -t.amount * sign);
      addFungible(t.to, t.token, t.amount * sign);
    } else if (t.kind === "ERC-721") {
      owners.set(`${t.token}|${t.tokenId}`, {
        token: t.token,
        tokenId: t.tokenId,
        owner: t.to === ZERO_ADDRESS ? null : t.to,
      });
      addFungible(t.from, t.token, -sign, counts);
      addFungible(t.to, t.token, sign, counts);
    } else {
      addHolding(t.from, t, -t.amount * sign);
      addHolding(t.to, t, t.amount * sign);
    }
  }
  return {
    holdings: [...per.values()].filter((d) => d.delta !== 0n),
    fungible: [...fung.values()].filter((d) => d.delta !== 0n),
    owners: [...owners.values()],
    erc721Counts: [...counts.values()].filter((d) => d.delta !== 0n),
  };
}
