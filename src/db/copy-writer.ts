import { copyField } from "./copy-text.js";

const TAB = 9;
const NEWLINE = 10;
const BACKSLASH = 92;
const LOWER_X = 120;
const ZERO = 48;

/**
 * COPY text written into bytes field by field, for the COPYs of a busy batch (a few MB). Built as strings, each line
 * was a tree of concatenations that sending flattened and encoded again on the main thread: about twice the work,
 * and garbage the young generation copied while the batch waited. Fields go in as UTF-8, so free text keeps its
 * characters, and a value that should be ASCII but is not (a node's malformed hex) reaches PostgreSQL unchanged,
 * to be refused there, never truncated into a delimiter.
 */
export class CopyWriter {
  private buf: Buffer;
  private pos = 0;

  /** `capacity`: bytes expected (it grows by doubling past them). */
  constructor(capacity = 1024) {
    this.buf = Buffer.allocUnsafeSlow(Math.max(16, capacity));
  }

  private room(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** A field's COPY text as it is (escaped already where it is free text). */
  text(s: string): void {
    this.room(s.length * 3);
    this.pos += this.buf.write(s, this.pos);
  }

  /** A bytea field from 0x-hex: `\\x` (the backslash doubled for the COPY line) and the digits. */
  hex(s: string): void {
    this.room(3 + s.length * 3);
    const b = this.buf;
    if (s.charCodeAt(0) === ZERO && s.charCodeAt(1) === LOWER_X) {
      // "0x…" written one byte in, its "0" then made the second backslash: no substring for the digits (a
      // busy block's COPY text has thousands of hex fields).
      b[this.pos] = BACKSLASH;
      const n = b.write(s, this.pos + 1);
      b[this.pos + 1] = BACKSLASH;
      this.pos += 1 + n;
      return;
    }
    b[this.pos++] = BACKSLASH;
    b[this.pos++] = BACKSLASH;
    b[this.pos++] = LOWER_X;
    this.pos += b.write(s, this.pos);
  }

  /** The field for a value of element type `type` (copy-text.ts `copyField`), hex strings written as they are. */
  field(value: unknown, type: string): void {
    if (typeof value === "string" && type === "bytea") this.hex(value);
    else this.text(copyField(value, type));
  }

  /** After a field: a tab, or `last` (the row's end) a newline. */
  end(last: boolean): void {
    this.room(1);
    this.buf[this.pos++] = last ? NEWLINE : TAB;
  }

  /** Bytes written so far. */
  get length(): number {
    return this.pos;
  }

  /**
   * What was written: a view of the writer's memory (nothing is written after it is taken), or a copy of its size
   * when that memory is more than twice it (a block's text is held until its batch is written: a quiet chain's
   * hundreds of small blocks must not each hold a large buffer).
   */
  bytes(): Buffer {
    const view = this.buf.subarray(0, this.pos);
    return this.pos * 2 < this.buf.length ? Buffer.from(view) : view;
  }
}
