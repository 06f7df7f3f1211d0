import type { Address, Hash, Hex } from "viem";
import type { Rpc } from "../../../chain/rpc.js";
import type { CallFrame, FetchedBlock, PrestateDiffTrace } from "../../../chain/types.js";
import { indexedChainIdExact } from "../../../chain-store/checkpoint.js";
import { toBytea, toByteaOrNull } from "../../../db/bytes.js";
import { command, type Queryable } from "../../../db/db.js";
import { type IndexerExtension, stageSlot } from "../../pipeline/extension.js";
import { bulkInsert } from "../core/bulk-insert.js";
import {
  authoritiesNeedingNonce,
  type JudgedAuthorization,
  type JudgedTransaction,
  judgeAuthorizations,
} from "./judge.js";
import { parseAuthorization, recoverAuthority } from "./recover.js";

const lower = (a: string) => a.toLowerCase() as Address;

/** CREATE/CREATE2 frames below the root per creator, skipping reverted subtrees (their nonce bumps are undone). */
function creationsBelow(root: CallFrame | undefined): Map<Address, number> {
  const out = new Map<Address, number>();
  const walk = (f: CallFrame) => {
    for (const c of f.calls ?? []) {
      // The creator's nonce moves before the init code runs: a creation that failed itself still counts, but
      // nothing below a frame that reverted does.
      if (c.type === "CREATE" || c.type === "CREATE2")
        out.set(lower(c.from), (out.get(lower(c.from)) ?? 0) + 1);
      if (!c.error) walk(c);
    }
  };
  if (root && !root.error) walk(root);
  return out;
}

type Row = JudgedAuthorization & { blockNumber: number };

const insertAuthorizations = bulkInsert<Row>("transaction_authorizations", [
  { column: "block_number", type: "int8", get: (r) => r.blockNumber },
  { column: "transaction_index", type: "int4", get: (r) => r.transactionIndex },
  { column: "index", type: "int4", get: (r) => r.index },
  { column: "transaction_hash", type: "bytea", get: (r) => toBytea(r.transactionHash) },
  { column: "chain_id", type: "numeric", get: (r) => r.tuple.chainId.toString() },
  { column: "address", type: "bytea", get: (r) => toBytea(r.tuple.address) },
  { column: "nonce", type: "numeric", get: (r) => r.tuple.nonce.toString() },
  { column: "v", type: "numeric", get: (r) => r.tuple.v.toString() },
  { column: "r", type: "numeric", get: (r) => r.tuple.r.toString() },
  { column: "s", type: "numeric", get: (r) => r.tuple.s.toString() },
  { column: "authority", type: "bytea", get: (r) => toByteaOrNull(r.authority) },
  { column: "status", type: "text", get: (r) => r.status },
]);

/** The nonces of `addresses` at the end of block `blockHash` (EIP-1898: exactly that version of the block). */
async function noncesAt(
  rpc: Rpc,
  blockHash: Hash,
  addresses: readonly Address[],
): Promise<Map<Address, bigint>> {
  const values = await Promise.all(
    addresses.map((a) => rpc.request<Hex>("eth_getTransactionCount", [a, { blockHash }]).then(BigInt)),
  );
  return new Map(addresses.map((a, i) => [a, values[i]!]));
}

/** An authority no transaction of the block changed: none of its authorizations there applied (no nonce matches). */
const UNCHANGED = -1n;

/**
 * The nonces at the block's start of `addresses`, from the block's prestate diffs (fetched with the block; one per
 * transaction, in order): an address's nonce before the first transaction that changed it (absent
 * before it: a new account, 0). A valid authorization and a sent transaction both change the nonce, so an address
 * no diff names kept its nonce and had no authorization applied (UNCHANGED). An entry without its nonce (a tracer
 * that leaves unchanged fields out) leaves the address to the node (not in the map).
 */
export function noncesFromDiffs(
  diffs: readonly PrestateDiffTrace[],
  addresses: readonly Address[],
): Map<Address, bigint> {
  const out = new Map<Address, bigint>();
  const lowered = diffs.map((d) => ({
    pre: new Map(Object.entries(d.result.pre ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    post: new Set(Object.keys(d.result.post ?? {}).map((k) => k.toLowerCase())),
  }));
  for (const a of addresses) {
    const first = lowered.find((d) => d.pre.has(a) || d.post.has(a));
    if (!first) out.set(a, UNCHANGED);
    else if (!first.pre.has(a)) out.set(a, 0n);
    else {
      const nonce = first.pre.get(a)!.nonce;
      if (nonce !== undefined) out.set(a, BigInt(nonce));
    }
  }
  return out;
}

/** A block's set-code transactions, their authorities recovered, and the nonces the verdicts start from. */
type Prepared = { txs: JudgedTransaction[]; startNonces: Map<Address, bigint> };

const PREPARED = stageSlot<Prepared | null>("authorizations");

/**
 * Recovers every authority of a block's authorizations and reads the nonces its verdicts need: done when the block
 * arrives (afterFetch), outside the batch transaction. Null for a block without type-4 transactions.
 */
async function prepareBlock(rpc: Rpc, fetched: FetchedBlock): Promise<Prepared | null> {
  const { block } = fetched;
  if (!block.transactions.some((t) => t.authorizationList?.length)) return null;
  const txs: JudgedTransaction[] = block.transactions.map((t, i) => {
    const tuples = (t.authorizationList ?? []).map(parseAuthorization);
    return {
      hash: t.hash,
      index: i,
      from: lower(t.from),
      nonce: BigInt(t.nonce ?? "0x0"),
      authorizations: tuples.map((tuple) => ({ tuple, authority: recoverAuthority(tuple) })),
      creations: creationsBelow(fetched.calls?.[i]),
    };
  });
  const need = authoritiesNeedingNonce(txs);
  if (!need.length) return { txs, startNonces: new Map() };
  // From the block's prestate diffs where the node gave them (no call); the node's nonces for what they leave open.
  const diffs = fetched.prestate;
  const known =
    diffs && diffs.length === block.transactions.length ? noncesFromDiffs(diffs, need) : new Map();
  const ask = need.filter((a) => !known.has(a));
  const read = ask.length ? await noncesAt(rpc, block.parentHash, ask) : new Map<Address, bigint>();
  return { txs, startNonces: new Map([...known, ...read]) };
}

/**
 * EIP-7702 set-code transactions: every authorization with its recovered authority and the protocol's verdict
 * (`transaction_authorizations`), and each block's delegation changes as proxy rows (`address_proxies`, type
 * `eip7702`, the delegate as implementation, null for a revocation). A block without type-4 transactions costs
 * nothing; one with them takes each authority's starting nonce from the block's prestate diffs where the node
 * gives them, else from an `eth_getTransactionCount` at its parent (a self-sponsored authorization needs none).
 * Recovery and those calls happen when the block arrives; the write only judges and inserts.
 */
export function authorizationsExtension(): IndexerExtension<Prepared | null> {
  return {
    id: PREPARED.id,
    afterFetch: (rpc, fetched) => prepareBlock(rpc, fetched),
    async write(tx: Queryable, batch: readonly FetchedBlock[], ctx: { rpc: Rpc }) {
      const rows: Row[] = [];
      const delegations: Array<{ address: Address; block: number; delegate: Address | null }> = [];
      let chainId: bigint | null = null;
      for (const fetched of batch) {
        const { block } = fetched;
        // A block fetched without this stage's afterFetch (a caller of its own): prepared here.
        const own = PREPARED.of(fetched);
        const prepared = own === undefined ? await prepareBlock(ctx.rpc, fetched) : own;
        if (!prepared) continue;
        // Read once per batch that has authorizations: a wiped local index may start another chain.
        if (chainId === null) {
          chainId = (await indexedChainIdExact(tx))!;
        }
        const number = Number(block.number);
        const judged = judgeAuthorizations(chainId, prepared.txs, prepared.startNonces);
        for (const v of judged.verdicts) rows.push({ ...v, blockNumber: number });
        for (const [address, delegate] of judged.delegations)
          delegations.push({ address, block: number, delegate });
      }
      await insertAuthorizations(tx, rows);
      if (delegations.length)
        // Written after the proxies stage: a delegated EOA is no contract proxy, its delegation is what holds.
        await command(
          tx,
          `insert into address_proxies (address, block_number, proxy_type, implementation)
           select a, b, 'eip7702', i from unnest($1::bytea[], $2::int8[], $3::bytea[]) as x(a, b, i)
           on conflict (address, block_number) do update
             set proxy_type = excluded.proxy_type, implementation = excluded.implementation`,
          [
            delegations.map((d) => toBytea(d.address)),
            delegations.map((d) => d.block),
            delegations.map((d) => toByteaOrNull(d.delegate)),
          ],
        );
    },
    async revert(tx, ancestor) {
      await command(tx, "delete from transaction_authorizations where block_number > $1", [ancestor]);
      await command(tx, "delete from address_proxies where block_number > $1 and proxy_type = 'eip7702'", [
        ancestor,
      ]);
    },
  };
}
