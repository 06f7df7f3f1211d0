import type { Address, Hash } from "viem";
import { describe, expect, it } from "vitest";
import { authoritiesNeedingNonce, type JudgedTransaction, judgeAuthorizations } from "./judge.js";

const A = "0x00000000000000000000000000000000000000a1" as Address;
const B = "0x00000000000000000000000000000000000000b2" as Address;
const D = "0x00000000000000000000000000000000000000d0" as Address;
const ZERO = "0x0000000000000000000000000000000000000000" as Address;
const tuple = (address: Address, nonce: bigint, chainId = 1n) => ({
  chainId,
  address,
  nonce,
  v: 0n,
  r: 1n,
  s: 1n,
});

function tx(
  index: number,
  from: Address,
  nonce: bigint,
  auths: Array<[Address, bigint, Address | null, bigint?]> = [],
  creations: Array<[Address, number]> = [],
): JudgedTransaction {
  return {
    hash: `0x${String(index).padStart(64, "0")}` as Hash,
    index,
    from,
    nonce,
    authorizations: auths.map(([address, n, authority, chainId]) => ({
      tuple: tuple(address, n, chainId),
      authority,
    })),
    creations: new Map(creations),
  };
}

describe("judging EIP-7702 authorizations", () => {
  it("asks the node only for authorities whose nonce the block does not show first", () => {
    const txs = [tx(0, A, 4n, [[D, 5n, A]]), tx(1, B, 0n, [[D, 0n, A]]), tx(2, B, 1n, [[D, 9n, D]])];
    expect(authoritiesNeedingNonce(txs)).toEqual([D]);
  });

  it("bumps the nonce per valid authorization, by the sender's transaction and by its contract creations", () => {
    const txs = [
      // A sends (nonce 4 → 5), then authorizes twice in its own list: 5 then 6 are valid, a repeated 6 is not.
      tx(0, A, 4n, [
        [D, 5n, A],
        [D, 6n, A],
        [D, 6n, A],
      ]),
      // B's transaction runs A's delegated code, which creates two contracts: A's nonce 7 → 9.
      tx(1, B, 0n, [], [[A, 2]]),
      tx(2, B, 1n, [
        [ZERO, 7n, A],
        [ZERO, 9n, A],
      ]),
    ];
    const { verdicts, delegations } = judgeAuthorizations(1n, txs, new Map());
    expect(verdicts.map((v) => v.status)).toEqual(["ok", "ok", "invalid_nonce", "invalid_nonce", "ok"]);
    // The zero address revokes: the delegation in force at the block's end is none.
    expect(delegations).toEqual(new Map([[A, null]]));
  });

  it("checks the chain id, the nonce's range and the signature before the nonce", () => {
    const txs = [
      tx(0, B, 0n, [
        [D, 0n, A, 2n],
        [D, 2n ** 64n - 1n, A],
        [D, 0n, null],
        [D, 0n, A, 0n],
      ]),
    ];
    const { verdicts, delegations } = judgeAuthorizations(1n, txs, new Map([[A, 0n]]));
    expect(verdicts.map((v) => v.status)).toEqual([
      "invalid_chain_id",
      "invalid_nonce",
      "invalid_signature",
      "ok",
    ]);
    expect(delegations).toEqual(new Map([[A, D]]));
  });
});
