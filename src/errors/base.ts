/**
 * The one error base of Lookout. Domain code throws subclasses with a stable `code`; each HTTP dialect
 * (api/v2, api/v1, etherscan, sourcify) maps codes to its own body. Domain code never mentions HTTP.
 */
export type LookoutErrorParameters = {
  code: string;
  /** One sentence a user can act on. */
  shortMessage: string;
  details?: string | undefined;
  metaMessages?: string[] | undefined;
  cause?: unknown;
};

export class LookoutError extends Error {
  override name = "LookoutError";
  readonly code: string;
  readonly shortMessage: string;
  readonly details: string | undefined;
  readonly metaMessages: string[];

  constructor(p: LookoutErrorParameters) {
    const details = p.details ?? (p.cause instanceof Error ? p.cause.message : undefined);
    const text = [p.shortMessage, ...(p.metaMessages ?? []), details ? `Details: ${details}` : undefined]
      .filter(Boolean)
      .join("\n");
    super(text, p.cause === undefined ? undefined : { cause: p.cause });
    this.code = p.code;
    this.shortMessage = p.shortMessage;
    this.details = details;
    this.metaMessages = p.metaMessages ?? [];
  }

  /** Walks the cause chain; returns the first error for which `fn` is true (or the deepest one). */
  walk(fn?: (e: unknown) => boolean): unknown {
    let e: unknown = this;
    while (e instanceof Error) {
      if (fn?.(e)) return e;
      if (e.cause === undefined) return fn ? undefined : e;
      e = e.cause;
    }
    return fn ? undefined : e;
  }
}

/** A bad user input (request body, query parameter, address, version). */
export class InvalidInputError extends LookoutError {
  override name = "InvalidInputError";
  constructor(shortMessage: string, opts: { field?: string; details?: string; cause?: unknown } = {}) {
    super({ code: "invalid_input", shortMessage, details: opts.details, cause: opts.cause });
    this.field = opts.field;
  }
  readonly field: string | undefined;
}

/** A temporary failure worth retrying (RPC hiccup, network, busy resource). */
export class RetryableError extends LookoutError {
  override name = "RetryableError";
}
