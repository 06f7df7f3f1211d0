import type { Address, Hash } from "viem";
import { OP_DEPOSIT_TYPE, OP_FEE_VAULTS } from "../../../chain/chain-type.js";
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
 * fee recipient earns the priority fee. On an OP-stack block a deposit's sender is credited its mint (even when the
 * deposit reverts) and pays no fee, while other transactions pay the fee vaults. The balances themselves are then
 * read with eth_getBalance, which is exact; only the attribution is inferred here.
 */
export function touchedByTransactions(fetched: FetchedBlock, opStack = false): Map<Address, Hash> {
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
    const deposit = tx.type != null && Number(tx.type) === OP_DEPOSIT_TYPE;
    const paysL1 = big(receipt?.l1Fee) > ZERO;
    if (fee > ZERO || paysL1 || (ok && value > ZERO) || (deposit && big(tx.mint) > ZERO)) touch(tx.from);
    if (opStack && !deposit && (fee > ZERO || paysL1)) for (const v of OP_FEE_VAULTS) touch(v);
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

/**
 * Addresses credited outside transactions: the fee recipient (block rewards), withdrawal recipients, and on an
 * OP-stack block the fee vaults (the protocol credits them, not a call).
 */
export function creditedOutsideTransactions(fetched: FetchedBlock, opStack = false): Address[] {
  const { block } = fetched;
  return [
    ...new Set([
      lower(block.miner),
      ...(block.withdrawals ?? []).map((w) => lower(w.address)),
      ...(opStack ? OP_FEE_VAULTS : []),
    ]),
  ];
}

/** Whether a block is an OP-stack one: the chain is known to be, or the block carries a deposit (every OP block does). */
export function isOpStackBlock(fetched: FetchedBlock, chainIsOp: boolean): boolean {
  return (
    chainIsOp || fetched.block.transactions.some((t) => t.type != null && Number(t.type) === OP_DEPOSIT_TYPE)
  );
}
