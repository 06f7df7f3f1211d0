/**
 * What a stage learns by writing a batch (its one-time backfill is behind it, the old minute slots are dropped up to
 * a cutoff), believed only once the transaction holding that write has committed: a batch that rolls back leaves
 * nothing believed. The stage calls `wrote(lastBlock, value)` in its write and `committed(lastBlock)` from
 * `afterCommit`; a commit of another batch (history beside the head) does not count. `forget()` when it may no
 * longer hold (a reorganisation).
 */
export type CommittedFact<T> = {
  /** The value of the last committed write, undefined before one or after `forget`. */
  value(): T | undefined;
  wrote(lastBlock: number, value: T): void;
  committed(lastBlock: number): void;
  forget(): void;
};

export function committedFact<T>(): CommittedFact<T> {
  let known: T | undefined;
  // Writes not yet committed, by their batch's last block (the head's and history's may be in flight at once).
  const pending = new Map<number, T>();
  return {
    value: () => known,
    wrote(lastBlock, value) {
      pending.set(lastBlock, value);
    },
    committed(lastBlock) {
      if (pending.has(lastBlock)) known = pending.get(lastBlock);
      // A failed batch's entry must not linger; another write in flight is only not promoted (safe).
      pending.clear();
    },
    forget() {
      known = undefined;
      pending.clear();
    },
  };
}
