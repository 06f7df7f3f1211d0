import type { Address, Hash } from "viem";
import type { CallFrame, FetchedBlock } from "../../../chain/types.js";

const ZERO = 0n;
const big = (hex: string | null | undefined) => (hex ? BigInt(hex) : ZERO);
const lower = (a: string) => a.toLowerCase() as Address;

function walkValueFrames(frame: CallFrame, visit: (f: CallFrame) => void): void {
  // A failed frame and everything below it moved nothing.
  if (frame.error) return;
  visit(frame);
  for (const c of frame.calls ?? []) walkValueFrames(c, visit);
}

/**
 * For nodes without prestate diffs: every address whose balance a transaction of this block may have moved,
 * mapped to the last such transaction. Senders pay fees (or send value), recipients, created contracts and
 * self-destruct beneficiaries receive value, internal calls move value (when traces are available), and the
 * fee recipient earns the priority fee. The balances themselves are then read with eth_getBalance, which is
 * exact; only the attribution is inferred here.
 */
export function touchedByTransactions(fetched: FetchedBlock): Map<Address, Hash> {
  const { block, receipts, calls } = fetched;
  const baseFee = big(block.baseFeePerGas);
  const out = new Map<Address, Hash>();
  block.transactions.forEach((tx, i) => {
    const receipt = receipts[i];
    const ok = receipt?.status === undefined || big(receipt.status) === 1n;
    const value = big(tx.value);
    const price = big(receipt?.effectiveGasPrice ?? tx.gasPrice);
    const fee = big(receipt?.gasUsed) * price;
    const touch = (a: string | null | undefined) => {
      if (a) out.set(lower(a), tx.hash);
    };
    if (fee > ZERO || (ok && value > ZERO)) touch(tx.from);
    if (ok && value > ZERO) touch(tx.to ?? receipt?.contractAddress);
    if (price > baseFee && big(receipt?.gasUsed) > ZERO) touch(block.miner);
    const root = calls?.[i];
    if (ok && root) {
      walkValueFrames(root, (f) => {
        const moves = big(f.value) > ZERO || f.type === "SELFDESTRUCT";
        if (!moves || f === root) return;
        touch(f.from);
        touch(f.to);
      });
    }
  });
  return out;
}

/** Addresses credited outside transactions: the fee recipient (block rewards) and withdrawal recipients. */
export function creditedOutsideTransactions(fetched: FetchedBlock): Address[] {
  const { block } = fetched;
  return [...new Set([lower(block.miner), ...(block.withdrawals ?? []).map((w) => lower(w.address))])];
}
