/**
 * Balances before and after one transaction, as Blockscout computes its state changes: start from the balances at
 * the end of the previous block and replay the block's earlier transactions, then this one. Pure: addresses are
 * lower-case hex strings, amounts bigints; a balance that is not known is null and stays null.
 */

export type CoinTx = {
  from: string;
  to: string | null;
  value: bigint;
  /** Reverted: only the fee moves. */
  failed: boolean;
  gasUsed: bigint;
  /** What it paid per gas (effective gas price). */
  price: bigint;
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
  /** OP stack: coin minted to the sender before a deposit runs (kept even when it reverts). */
  mint?: bigint;
  /** What the sender pays beside gas used × price: OP stack's L1 data fee and operator fee, EIP-4844's blob fee. */
  extraFee?: bigint;
};

/** A call frame that moved value inside a successful transaction (frames of failed subtrees left out). */
export type ValueFrame = { from: string; to: string; value: bigint };

export type CoinBlock = { miner: string; baseFeePerGas: bigint | null };

export type CoinChange = {
  address: string;
  before: bigint | null;
  after: bigint | null;
  change: bigint;
  isMiner: boolean;
};

/**
 * Blockscout's miner profit of a transaction: the priority fee per gas (the lesser of the max priority fee and
 * what the max fee leaves above the base fee; legacy transactions offer their gas price for both) times gas used.
 */
export function minerProfit(tx: CoinTx, block: CoinBlock): bigint {
  const base = block.baseFeePerGas ?? 0n;
  const maxPriority = tx.maxPriorityFeePerGas ?? tx.price;
  const maxFee = tx.maxFeePerGas ?? tx.price;
  const perGas = maxPriority < maxFee - base ? maxPriority : maxFee - base;
  // Only an OP-stack deposit pays less than the base fee (nothing): it gives the miner nothing either.
  return perGas > 0n ? perGas * tx.gasUsed : 0n;
}

function applyTx(
  balances: Map<string, bigint | null>,
  tx: CoinTx,
  frames: readonly ValueFrame[],
  block: CoinBlock,
): void {
  const add = (a: string | null, d: bigint) => {
    if (a === null || !balances.has(a)) return;
    const v = balances.get(a)!;
    balances.set(a, v === null ? null : v + d);
  };
  const fee = tx.price * tx.gasUsed + (tx.extraFee ?? 0n);
  add(tx.from, (tx.mint ?? 0n) - (tx.failed ? fee : fee + tx.value));
  if (!tx.failed) add(tx.to, tx.value);
  add(block.miner, minerProfit(tx, block));
  if (tx.failed) return;
  for (const f of frames) {
    add(f.from, -f.value);
    add(f.to, f.value);
  }
}

/**
 * Native coin changes of the last of `txs` (the block's transactions up to it, in order), for its sender,
 * recipient, the block's miner and every address a frame of it moved value between; `before` gives those
 * addresses' balances at the end of the previous block. Only addresses whose balance changed are returned, by
 * address.
 */
export function coinChanges(
  txs: ReadonlyArray<{ tx: CoinTx; frames: readonly ValueFrame[] }>,
  block: CoinBlock,
  before: ReadonlyMap<string, bigint | null>,
): CoinChange[] {
  const balances = new Map(before);
  const last = txs[txs.length - 1]!;
  for (const { tx, frames } of txs.slice(0, -1)) applyTx(balances, tx, frames, block);
  // The transaction's own effect, known even where a balance is not.
  const delta = new Map<string, bigint | null>([...before.keys()].map((a) => [a, 0n]));
  applyTx(delta, last.tx, last.frames, block);
  const out: CoinChange[] = [];
  for (const [address, d] of delta) {
    if (d === 0n || d === null) continue;
    const b = balances.get(address) ?? null;
    out.push({
      address,
      before: b,
      after: b === null ? null : b + d,
      change: d,
      isMiner: address === block.miner,
    });
  }
  return out.sort((x, y) => (x.address < y.address ? -1 : x.address > y.address ? 1 : 0));
}

/** The addresses whose coin balance one transaction may change. */
export function coinParticipants(tx: CoinTx, frames: readonly ValueFrame[], block: CoinBlock): string[] {
  const set = new Set<string>([tx.from, block.miner]);
  if (tx.to) set.add(tx.to);
  for (const f of frames) {
    set.add(f.from);
    set.add(f.to);
  }
  return [...set];
}

/**
 * The frames that moved value in a successful transaction: not delegatecalls (the value stays with the caller),
 * not frames inside a failed frame (reverted with it), not failed frames themselves.
 */
export function valueFrames(
  frames: ReadonlyArray<{
    callType: string | null;
    from: string;
    to: string | null;
    value: bigint;
    error: string | null;
    traceAddress: readonly number[];
  }>,
): ValueFrame[] {
  const failed = frames.filter((f) => f.error !== null).map((f) => f.traceAddress.join(","));
  const inFailed = (t: readonly number[]) => {
    const key = t.join(",");
    return failed.some((p) => key === p || key.startsWith(`${p},`));
  };
  return frames
    .filter(
      (f) => f.value > 0n && f.to !== null && f.callType !== "delegatecall" && !inFailed(f.traceAddress),
    )
    .map((f) => ({ from: f.from, to: f.to!, value: f.value }));
}

/** One token transfer, reduced to what moves balances. */
export type TokenMove = {
  token: string;
  /** ERC-20 and ERC-404's fungible side: "fungible"; ERC-721: "erc721" (one unit each); ERC-1155: "id". */
  kind: "fungible" | "erc721" | "id";
  id: string | null;
  from: string;
  to: string;
  amount: bigint;
};

export const balanceKey = (holder: string, m: { token: string; kind: string; id: string | null }) =>
  `${holder}|${m.token}|${m.kind === "id" ? m.id : ""}`;

/**
 * Token balances before and after the last transaction's transfers (`own`), replaying the block's earlier
 * transfers (`earlier`) onto the balances at the end of the previous block (`before`, by balanceKey; null when
 * unknown). One entry per holder and token (and id, for ERC-1155) that the transaction's transfers touch.
 */
export function tokenChanges(
  earlier: readonly TokenMove[],
  own: readonly TokenMove[],
  before: ReadonlyMap<string, bigint | null>,
): Map<string, { before: bigint | null; after: bigint | null; change: bigint }> {
  const balances = new Map(before);
  const apply = (target: Map<string, bigint | null>, m: TokenMove, all: boolean) => {
    const units = m.kind === "erc721" ? 1n : m.amount;
    for (const [holder, d] of [
      [m.from, -units],
      [m.to, units],
    ] as const) {
      const k = balanceKey(holder, m);
      if (!target.has(k)) {
        if (!all) continue;
        target.set(k, 0n);
      }
      const v = target.get(k)!;
      target.set(k, v === null ? null : v + d);
    }
  };
  for (const m of earlier) apply(balances, m, false);
  // The transaction's own effect per holder and token, known even where a balance is not.
  const delta = new Map<string, bigint | null>();
  for (const m of own) apply(delta, m, true);
  const out = new Map<string, { before: bigint | null; after: bigint | null; change: bigint }>();
  for (const [k, d] of delta) {
    const b = balances.get(k) ?? null;
    out.set(k, { before: b, after: b === null ? null : b + d!, change: d! });
  }
  return out;
}
