import type { Address, Hash } from "viem";
import type { Authorization } from "./recover.js";

export type AuthorizationStatus = "ok" | "invalid_chain_id" | "invalid_nonce" | "invalid_signature";

/** What the judgement needs of one transaction of a block, in block order. */
export type JudgedTransaction = {
  hash: Hash;
  index: number;
  from: Address;
  nonce: bigint;
  /** Its authorization list (type 4), with the authority each signature recovered (null: none). */
  authorizations: ReadonlyArray<{ tuple: Authorization; authority: Address | null }>;
  /**
   * How many contract creations each address ran during the transaction's execution, outside reverted frames (a
   * delegated EOA running CREATE bumps its own nonce); empty when the node gave no traces.
   */
  creations: ReadonlyMap<Address, number>;
};

export type JudgedAuthorization = {
  transactionIndex: number;
  transactionHash: Hash;
  index: number;
  tuple: Authorization;
  authority: Address | null;
  status: AuthorizationStatus;
};

const NONCE_LIMIT = 2n ** 64n - 1n;
const ZERO = "0x0000000000000000000000000000000000000000";

/**
 * The authorities whose nonce at the start of the block the judgement needs: those that sign an authorization
 * before sending any transaction of the block (a sender's nonce is then known from its transaction). Pure.
 */
export function authoritiesNeedingNonce(txs: readonly JudgedTransaction[]): Address[] {
  const known = new Set<Address>();
  const need = new Set<Address>();
  for (const t of txs) {
    known.add(t.from);
    for (const a of t.authorizations) if (a.authority && !known.has(a.authority)) need.add(a.authority);
  }
  return [...need];
}

/**
 * Judges a block's authorizations as EIP-7702 processes them, in order: the chain id must be 0 or the chain's, the
 * nonce below 2^64-1, the signature must recover an authority, and the authority's nonce at that point must equal the
 * authorization's nonce. The sender's nonce is bumped before its transaction's list is processed; each valid
 * authorization bumps its authority's nonce. `startNonces`: the nonces at the end of the parent block of the
 * addresses authoritiesNeedingNonce named. Returns every verdict and, per authority whose delegation the block
 * changed, the delegate in force at its end (null: revoked). Pure.
 */
export function judgeAuthorizations(
  chainId: bigint,
  txs: readonly JudgedTransaction[],
  startNonces: ReadonlyMap<Address, bigint>,
): { verdicts: JudgedAuthorization[]; delegations: Map<Address, Address | null> } {
  const nonces = new Map(startNonces);
  const verdicts: JudgedAuthorization[] = [];
  const delegations = new Map<Address, Address | null>();
  for (const t of txs) {
    nonces.set(t.from, t.nonce + 1n);
    t.authorizations.forEach(({ tuple, authority }, index) => {
      let status: AuthorizationStatus;
      if (tuple.chainId !== 0n && tuple.chainId !== chainId) status = "invalid_chain_id";
      else if (tuple.nonce >= NONCE_LIMIT) status = "invalid_nonce";
      else if (!authority) status = "invalid_signature";
      else if (nonces.get(authority) !== tuple.nonce) status = "invalid_nonce";
      else {
        status = "ok";
        nonces.set(authority, tuple.nonce + 1n);
        delegations.set(authority, tuple.address === ZERO ? null : tuple.address);
      }
      verdicts.push({ transactionIndex: t.index, transactionHash: t.hash, index, tuple, authority, status });
    });
    for (const [address, n] of t.creations) {
      const current = nonces.get(address);
      if (current !== undefined) nonces.set(address, current + BigInt(n));
    }
  }
  return { verdicts, delegations };
}
