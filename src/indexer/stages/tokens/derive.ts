import type { Address, Hash } from "viem";
import type { FetchedBlock } from "../../../chain/types.js";
import { type DecodedTransfer, decodeTokenLog, higherType, type TokenType, ZERO_ADDRESS } from "./decode.js";

export type TransferRow = DecodedTransfer & { blockNumber: number; logIndex: number; transactionHash: Hash };

export type TokenSeen = { address: Address; type: TokenType; firstBlock: number; mintedOrBurned: boolean };

export type TokenRows = {
  transfers: TransferRow[];
  tokens: TokenSeen[];
  malformed: Array<{ blockNumber: number; logIndex: number; address: Address; reason: string }>;
};

const derived = new WeakMap<readonly FetchedBlock[], TokenRows>();

/**
 * deriveTokenRows of a batch, derived once: the core stage reads which transactions have transfers from the same
 * batch array the tokens stage writes them from. Pure (the rows are not to be changed).
 */
export function tokenRowsOf(batch: readonly FetchedBlock[]): TokenRows {
  let rows = derived.get(batch);
  if (!rows) {
    rows = deriveTokenRows(batch);
    derived.set(batch, rows);
  }
  return rows;
}

/** Token transfers and token contracts of a batch, in chain order. Pure. */
export function deriveTokenRows(batch: readonly FetchedBlock[]): TokenRows {
  const transfers: TransferRow[] = [];
  const malformed: TokenRows["malformed"] = [];
  const tokens = new Map<Address, TokenSeen>();
  for (const b of batch) {
    const blockNumber = Number(b.block.number);
    for (const r of b.receipts) {
      for (const log of r.logs ?? []) {
        if (log.removed) continue;
        const d = decodeTokenLog(log);
        if (d === null) continue;
        const logIndex = Number(log.logIndex);
        if (!d.ok) {
          malformed.push({ blockNumber, logIndex, address: log.address, reason: d.reason });
          continue;
        }
        for (const t of d.transfers) {
          transfers.push({ ...t, blockNumber, logIndex, transactionHash: log.transactionHash });
          const seen = tokens.get(t.token);
          const mb = t.from === ZERO_ADDRESS || t.to === ZERO_ADDRESS;
          if (seen) {
            seen.type = higherType(seen.type, t.kind);
            seen.mintedOrBurned ||= mb;
          } else
            tokens.set(t.token, {
              address: t.token,
              type: t.kind,
              firstBlock: blockNumber,
              mintedOrBurned: mb,
            });
        }
      }
    }
  }
  return { transfers, tokens: [...tokens.values()], malformed };
}

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
