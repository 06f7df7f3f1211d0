import { LookoutError } from "../../errors/base.js";

/** An error that retrying cannot fix: the indexer stops and the process exits non-zero. */
export class FatalIndexerError extends LookoutError {
  override name = "FatalIndexerError";
}

/** A block, or a range of them, changed while being fetched (the node reorganised meanwhile). */
export class InconsistentBlockError extends LookoutError {
  override name = "InconsistentBlockError";
  constructor(shortMessage: string) {
    super({ code: "inconsistent_block", shortMessage });
  }
}
