import type { FetchedBlock } from "../../chain/types.js";
import { closeTrail, moveTrail, openTrail, readTrail } from "../../chain-store/trail.js";
import type { Db, Queryable } from "../../db/db.js";
import { LookoutError } from "../../errors/base.js";
import type { Logger } from "../../util/logger.js";
import type { IndexerExtension, StageId, TrailCarry } from "./extension.js";

type Deps = {
  db: Db;
  logger: Logger;
  /** The trailing stages, in write order. */
  stages: readonly IndexerExtension[];
  /** Every stage the indexer runs (a stage carries its sums only when the stages it `needs` are among them). */
  present: ReadonlySet<StageId>;
  /**
   * Committed batches one trailing write covers: their sums are read back and written once for the whole range, so
   * an address (a day, a minute slot) the batches share gets one new row version instead of one per batch.
   */
  mergeBatches: number;
};

/** What a stage whose fold failed carries for the rest of its range: the range is written from the stored rows. */
const UNCARRIED = Symbol("uncarried");

/** A batch whose sums are folded ahead of its commit: `carried` once folded (null until its turn comes). */
type Ahead = { batch: readonly FetchedBlock[]; carried: unknown[] | null; timer: NodeJS.Immediate };

/** Owed batches past which a catching-up batch waits for the trailing write in flight (their lag stays bounded). */
const OWED_LIMIT = 4;

const trailMoved = (from: number) =>
  new LookoutError({
    code: "checkpoint_moved",
    shortMessage: `Another writer moved the trailing stages' cursor (this one held ${from}); continuing from it.`,
  });

/**
 * The trailing stages' writes during catch-up (docs/architecture.md, "Trailing stages"). A batch's transaction
 * writes every other stage and commits; the trailing stages (latest balances and sums read back from the batches'
 * committed rows, written to tables no other stage writes) then write a range of committed batches at once, from the stored rows,
 * in a transaction of their own on another connection, beside the next batches' transactions: PostgreSQL works on
 * both at once. One trailing write is in flight at a time, in block order; `indexer_trail` (chain-store/trail.ts)
 * says up to which block they have written, moved in the same transaction, so a crash leaves them either level with
 * the checkpoint or behind it by whole batches, which `settle` (also at start) writes from the stored rows before
 * anything else is written. A stage with `carry` folds each batch it follows into sums kept here (while the batch
 * commits), so its trailing write reads none of the batches' rows back; after a crash or a failure `settle` writes
 * from the stored rows. PGlite has one connection: there every batch writes its trailing stages in its own
 * transaction, as before.
 */
export class TrailingWrites {
  private job: Promise<void> | null = null;
  /**
   * Committed batches not written yet, not in the write in flight: after block `from` up to `to`, with what each
   * stage that carries its sums folded from them (by the stages' index; undefined for a stage without `carry`).
   */
  private owed: { from: number; to: number; batches: number; carried: unknown[] } | null = null;
  /** No `settle` yet: what a crash left owed is not known. */
  private starting = true;
  /** The cursor row may exist (unknown at start: true until a read or a delete says otherwise). */
  private open = true;
  /** A trailing write failed: what it owed is written by `settle` before the next batch. */
  private failed = false;
  /** The batch folded ahead of its commit (`foldAhead`), if any. */
  private ahead: Ahead | null = null;

  /** By the stages' index: the carry of a stage that carries its sums here, undefined for the others. */
  private readonly carries: ReadonlyArray<TrailCarry | undefined>;

  constructor(private readonly deps: Deps) {
    this.carries = deps.stages.map((x) => {
      const carry = x.trailing!.carry;
      return carry?.needs.every((id) => deps.present.has(id)) ? carry : undefined;
    });
  }

  /** Whether a batch may leave its trailing stages to a transaction of their own. */
  get usable(): boolean {
    return this.deps.db.kind === "postgres" && this.deps.stages.length > 0 && !this.failed;
  }

  /**
   * Before a batch that leaves them: waits while the batches they owe are past the limit (the write in flight
   * takes them when it ends).
   */
  async room(): Promise<void> {
    while (this.job && this.owed && this.owed.batches >= this.limit) await this.job;
  }

  /** In the transaction of a batch that leaves them: the cursor at the block before it, if not there already. */
  async holdIn(tx: Queryable, before: number): Promise<void> {
    if (!this.open) await openTrail(tx, before);
  }

  /**
   * In the transaction of a batch that leaves them, once its last statement is sent: the batch is folded into the
   * carried sums right after, while the database runs that statement and the commit (the fold is main-thread
   * work the next batch's transaction would otherwise wait for). `follow` then counts it; `abandon` if the
   * transaction fails. No range launches meanwhile: the sums it would take hold a batch that may not commit.
   */
  foldAhead(batch: readonly FetchedBlock[]): void {
    if (!this.carries.some((c) => c)) return;
    const ahead: Ahead = { batch, carried: null, timer: setImmediate(() => this.runAhead(ahead)) };
    this.ahead = ahead;
  }

  private runAhead(ahead: Ahead): void {
    clearImmediate(ahead.timer);
    if (ahead.carried === null) ahead.carried = this.fold(ahead.batch);
  }

  /**
   * The batch folded ahead did not commit: sums it was folded into are no longer known, so their range is written
   * from the stored rows.
   */
  abandon(): void {
    const ahead = this.ahead;
    this.ahead = null;
    if (!ahead) return;
    clearImmediate(ahead.timer);
    if (ahead.carried !== null && this.owed)
      this.owed.carried = this.owed.carried.map((c, i) => (this.carries[i] ? UNCARRIED : c));
  }

  /** What each carrying stage holds after folding `batch` into the owed sums (a new range's when none are owed). */
  private fold(batch: readonly FetchedBlock[]): unknown[] {
    return this.carries.map((carry, i) => {
      const before = this.owed?.carried[i];
      if (!carry || before === UNCARRIED) return before;
      try {
        return carry.fold(before, batch);
      } catch (e) {
        // The range is then written from the stored rows: sums that missed a batch would be wrong.
        this.deps.logger.warn({ err: e, stage: this.deps.stages[i]!.id }, "Trailing sums not carried");
        return UNCARRIED;
      }
    });
  }

  /** After that transaction committed: `batch` is owed, written with the ones before it once enough are. */
  follow(batch: readonly FetchedBlock[], before: number): void {
    this.open = true;
    const last = Number(batch[batch.length - 1]!.block.number);
    const ahead = this.ahead;
    if (ahead && ahead.batch !== batch) this.abandon();
    let carried: unknown[];
    if (ahead?.batch === batch) {
      this.ahead = null;
      this.runAhead(ahead);
      carried = ahead.carried!;
    } else carried = this.fold(batch);
    this.owed = {
      from: this.owed?.from ?? before,
      to: last,
      batches: (this.owed?.batches ?? 0) + 1,
      carried,
    };
    if (!this.job && this.owed.batches >= this.deps.mergeBatches) this.launch();
  }

  private get limit(): number {
    return OWED_LIMIT * this.deps.mergeBatches;
  }

  /** Writes what is owed in a transaction of its own; the next range starts when it ends, if enough is owed. */
  private launch(): void {
    const range = this.owed!;
    this.owed = null;
    const { db, stages, logger } = this.deps;
    this.job = (async () => {
      if (this.failed) return;
      try {
        await db.transaction(async (tx) => {
          if (!(await moveTrail(tx, range.from, range.to))) throw trailMoved(range.from);
          for (const [i, x] of stages.entries()) {
            // Every batch of the range was followed here, so what a carrying stage folded covers all of it.
            const carry = this.carries[i];
            const carried = range.carried[i];
            if (carry && carried !== UNCARRIED) await carry.write(tx, range.from + 1, range.to, carried);
            else await x.trailing!.writeStored(tx, range.from + 1, range.to);
          }
        });
        for (const x of stages) x.afterCommit?.(range.to);
      } catch (e) {
        this.failed = true;
        logger.warn(
          { err: e, from: range.from + 1, to: range.to },
          "Trailing stages failed; written again from the stored rows",
        );
      }
    })().finally(() => {
      this.job = null;
      if (!this.failed && !this.ahead && this.owed && this.owed.batches >= this.deps.mergeBatches)
        this.launch();
    });
  }

  /**
   * Level with the checkpoint `tip`: waits for the trailing write in flight and writes what is owed: the batches
   * followed here as a range is written (from the sums carried where kept), from the stored rows what a failed
   * write or a crash left. Before every write that is not a batch leaving them, and at start.
   */
  async settle(tip: number | null): Promise<void> {
    while (this.job) await this.job;
    this.abandon();
    // In the normal course (a step's end) the batches owed are the ones followed here: written as a range is, from
    // their carried sums, not read back.
    if (!this.failed && !this.starting && this.owed && this.owed.to === tip) {
      this.launch();
      while (this.job) await this.job;
    }
    // Batches owed in the normal course are written here without notice; a crash's or a failure's are told.
    const repair = this.failed || this.starting;
    this.owed = null;
    this.starting = false;
    if (!this.open) return;
    const { db, stages } = this.deps;
    const owed = await readTrail(db);
    if (owed !== null && tip !== null && owed < tip) {
      await db.transaction(async (tx) => {
        if (!(await moveTrail(tx, owed, tip))) throw trailMoved(owed);
        for (const x of stages) await x.trailing!.writeStored(tx, owed + 1, tip);
      });
      for (const x of stages) x.afterCommit?.(tip);
      const log = this.deps.logger;
      (repair ? log.info.bind(log) : log.debug.bind(log))(
        { from: owed + 1, to: tip },
        "Trailing stages written up to the checkpoint",
      );
    }
    this.open = owed !== null;
    this.failed = false;
  }

  /** In a transaction that writes (or reverts) the trailing stages itself, after `settle`: no cursor is left. */
  async closeIn(tx: Queryable): Promise<void> {
    if (this.open) await closeTrail(tx);
  }

  /** That transaction committed. */
  closed(): void {
    this.open = false;
  }
}
