import { LookoutError } from "../../errors/base.js";

export type CompilerErrorKind = "timeout" | "memory" | "crash" | "download" | "checksum" | "unavailable";

/** The compiler could not produce an output (as opposed to compile errors, which are part of the output). */
export class CompilerError extends LookoutError {
  override name = "CompilerError";
  readonly kind: CompilerErrorKind;
  constructor(
    kind: CompilerErrorKind,
    shortMessage: string,
    opts: { details?: string | undefined; cause?: unknown } = {},
  ) {
    super({ code: `compiler_${kind}`, shortMessage, details: opts.details, cause: opts.cause });
    this.kind = kind;
  }
}
