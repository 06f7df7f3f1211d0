import type { Address, Hash, Hex } from "viem";
import type { NodeCapabilities } from "../../../chain/capabilities.js";
import { OP_DEPOSIT_TYPE, OP_OPERATOR_FEE_VAULT } from "../../../chain/chain-type.js";
import type { Rpc } from "../../../chain/rpc.js";
import type { FetchedBlock, PrestateDiffTrace, RpcBlock } from "../../../chain/types.js";
import type { ReadBalance } from "./derive.js";
import { creditedOutsideTransactions, isOpStackBlock, touchedByTransactions } from "./touched.js";

/** What the balances stage's afterFetch brings for one block. */
export type BalanceFetch = {
  /** Prestate diffs per transaction (prestate mode): the fetched block's own. */
  traces: PrestateDiffTrace[] | null;
  /** Attribution inferred from the block (fallback mode). */
  touched: Array<[Address, Hash]> | null;
  /** Balances read with eth_getBalance at this block and at its parent. */
  read: ReadBalance[];
};

/**
 * Balances at the end of the parent and (when `atBlock`) of the block, requested by block hash (EIP-1898) so that
 * they belong to exactly the block version indexed, in one tick (one JSON-RPC batch). Block 0 has no parent: 0.
 */
async function readBalances(
  rpc: Rpc,
  header: Pick<RpcBlock, "number" | "hash" | "parentHash">,
  addresses: readonly Address[],
  atBlock: boolean,
  credited: ReadonlyMap<Address, bigint> = new Map(),
): Promise<ReadBalance[]> {
  const genesis = Number(header.number) === 0;
  const at = (address: Address, blockHash: Hash) =>
    rpc.request<Hex>("eth_getBalance", [address, { blockHash }]).then(BigInt);
  return Promise.all(
    addresses.map(async (address) => {
      const [value, previous] = await Promise.all([
        atBlock || genesis ? at(address, header.hash) : null,
        genesis ? 0n : at(address, header.parentHash),
      ]);
      const c = credited.get(address);
      return { address, value, previous, ...(c ? { credited: c } : {}) };
    }),
  );
}

/** Withdrawals per recipient in wei (EIP-4895 amounts are in gwei). */
function withdrawalCredits(header: Pick<RpcBlock, "withdrawals">): Map<Address, bigint> {
  const out = new Map<Address, bigint>();
  for (const w of header.withdrawals ?? []) {
    const a = w.address.toLowerCase() as Address;
    out.set(a, (out.get(a) ?? 0n) + BigInt(w.amount) * 1_000_000_000n);
  }
  return out;
}

/**
 * Since the merge (difficulty 0) nothing but the transactions and the withdrawals moves a balance: no block reward.
 * The end of such a block is then derived from its parent's balances, its traces and its withdrawals, and never read
 * at the block itself, which a node that is mining the next one may answer with that next block's state.
 */
const paysNoBlockReward = (header: RpcBlock) => header.difficulty != null && BigInt(header.difficulty) === 0n;

/**
 * Genesis allocations are not visible over standard JSON-RPC without a state dump. We read the node's own
 * accounts (a development node's funded accounts); other allocated addresses get their first row when their
 * balance first changes (with the exact value and delta against the previous block).
 */
async function genesisAddresses(rpc: Rpc): Promise<Address[]> {
  try {
    return await rpc.request<Address[]>("eth_accounts", []);
  } catch {
    return [];
  }
}

const uniqueLower = (xs: readonly string[]) => [...new Set(xs.map((x) => x.toLowerCase() as Address))];

/** Whether any transaction's prestate diff names the address (tracers key accounts in any case). */
function inTraces(traces: readonly PrestateDiffTrace[], address: Address): boolean {
  return traces.some((t) =>
    [...Object.keys(t.result.pre ?? {}), ...Object.keys(t.result.post ?? {})].some(
      (k) => k.toLowerCase() === address,
    ),
  );
}

/**
 * Whether a transaction of the block paid an operator fee, by its receipts: an Isthmus receipt of a non-deposit
 * transaction says its operator fee scalar and constant (zero: none). A receipt from before Isthmus has none; a
 * receipt without OP members at all comes from a node that is no OP client (anvil), whose prestate tracer shows every
 * account touched, so the traces already tell.
 */
export function paysOperatorFee(fetched: FetchedBlock): boolean {
  const nonZero = (h: Hex | null | undefined) => h != null && BigInt(h) !== 0n;
  return fetched.receipts.some(
    (r, i) =>
      Number(fetched.block.transactions[i]?.type ?? 0) !== OP_DEPOSIT_TYPE &&
      (nonZero(r.operatorFeeScalar) || nonZero(r.operatorFeeConstant)),
  );
}

/**
 * OP stack: the protocol credits the fee vaults outside every frame. A tracer shows the vaults it looks up: op-geth's
 * the base fee and L1 fee vaults in each transaction (and the fee recipient), never the operator fee vault; anvil's
 * every account touched. So the operator fee vault is read at the block's end when a receipt says a transaction paid
 * it and no trace of the block shows it. (Only it: a read of the head may see the next block on a node mining it, as
 * for the fee recipient, and a vault a trace would show but did not was not paid.) A block whose receipts show no
 * operator fee (every block before Isthmus, blocks of deposits only, every block of a node whose receipts have no OP
 * members) costs no call.
 */
function unseenOperatorVault(
  fetched: FetchedBlock,
  caps: NodeCapabilities,
  traces: readonly PrestateDiffTrace[],
  credited: readonly Address[],
): boolean {
  return (
    caps.chainType === "optimism" &&
    !credited.includes(OP_OPERATOR_FEE_VAULT) &&
    !inTraces(traces, OP_OPERATOR_FEE_VAULT) &&
    paysOperatorFee(fetched)
  );
}

/**
 * The stage's afterFetch: the balances a block's rows need, from the fetched block and its prestate diffs where the
 * node gives them (`fetched.prestate`), else the addresses its transactions touched, each read at the block's end.
 */
export async function fetchBalances(
  rpc: Rpc,
  fetched: FetchedBlock,
  caps: NodeCapabilities,
): Promise<BalanceFetch> {
  const { block } = fetched;
  const accounts = Number(block.number) === 0 ? await genesisAddresses(rpc) : [];
  const traces = fetched.prestate;
  if (traces) {
    const credited = uniqueLower([
      block.miner,
      ...(block.withdrawals ?? []).map((w) => w.address),
      ...accounts,
    ]);
    const [read, vault] = await Promise.all([
      readBalances(rpc, block, credited, !paysNoBlockReward(block), withdrawalCredits(block)),
      unseenOperatorVault(fetched, caps, traces, credited)
        ? readBalances(rpc, block, [OP_OPERATOR_FEE_VAULT], true)
        : [],
    ]);
    return { traces, touched: null, read: [...read, ...vault] };
  }
  // No prestate diffs: find the touched addresses from the block itself, then read every one of them.
  const op = isOpStackBlock(fetched, caps.chainType === "optimism");
  const touched = touchedByTransactions(fetched, op);
  const addresses = uniqueLower([
    ...creditedOutsideTransactions(fetched, op),
    ...touched.keys(),
    ...accounts,
  ]);
  return {
    traces: null,
    touched: [...touched],
    // Without traces the end of the block can only be read.
    read: await readBalances(rpc, block, addresses, true),
  };
}
