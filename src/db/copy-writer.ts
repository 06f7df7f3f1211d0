/**
 * Rows in PostgreSQL's binary COPY format, written field by field into memory of its own when a block arrives (a
 * busy batch's COPYs are a few MB). Against the text format: a hash is its 32 bytes, not 66 characters PostgreSQL
 * decodes again; an integer is its 4 or 8 bytes, not digits; an amount is its base-10000 digits, which PostgreSQL
 * reads without parsing decimal text. Fields are length-prefixed, so no value can shift a column, and none needs
 * escaping. Only the tuples are written here: `copyFrameParts` frames any number of them for one COPY.
 */

/** A column's type in the table, as COPY's binary format carries it. */
export type CopyType =
  | "bytea"
  | "int2"
  | "int4"
  | "int8"
  | "bool"
  | "text"
  | "jsonb"
  | "numeric"
  | "timestamptz"
  | "bytea[]"
  | "int4[]";

const COPY_TYPES: ReadonlySet<string> = new Set<CopyType>([
  "bytea",
  "int2",
  "int4",
  "int8",
  "bool",
  "text",
  "jsonb",
  "numeric",
  "timestamptz",
  "bytea[]",
  "int4[]",
]);

/** `type` as a CopyType, or an error naming it (checked when a bulk insert is defined, not per row). */
export function copyType(type: string): CopyType {
  if (!COPY_TYPES.has(type)) throw new Error(`no binary COPY encoding for column type ${type}`);
  return type as CopyType;
}

/** "PGCOPY\n\377\r\n\0", no flags, no header extension. */
const HEADER = Buffer.from([
  0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
]);
/** A field count of -1. */
const TRAILER = Buffer.from([0xff, 0xff]);

/** One COPY's input from its tuples (written by CopyWriter, consecutive parts concatenated): header, tuples, end. */
export function copyFrameParts(tuples: Uint8Array): Uint8Array[] {
  return [HEADER, tuples, TRAILER];
}

/** The `copy … from stdin` statement for binary tuples. */
export function copyStatement(table: string, columns: readonly string[], source = "stdin"): string {
  return `copy ${table} (${columns.join(", ")}) from ${source} (format binary)`;
}

const ZERO = 48;
const MINUS = 45;
const TWO_32 = 2 ** 32;
/** Seconds from the Unix epoch to PostgreSQL's (2000-01-01). */
const PG_EPOCH_SECONDS = 946_684_800;
const OID_BYTEA = 17;
const OID_INT4 = 23;
const NUMERIC_NEG = 0x4000;

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

  private u16(n: number): void {
    const b = this.buf;
    b[this.pos++] = (n >>> 8) & 0xff;
    b[this.pos++] = n & 0xff;
  }

  private u32(n: number): void {
    const b = this.buf;
    b[this.pos++] = (n >>> 24) & 0xff;
    b[this.pos++] = (n >>> 16) & 0xff;
    b[this.pos++] = (n >>> 8) & 0xff;
    b[this.pos++] = n & 0xff;
  }

  /** A signed 64-bit integer from a safe integer (two 32-bit halves: no BigInt per field). */
  private i64(n: number): void {
    const high = Math.floor(n / TWO_32);
    this.u32(high >>> 0);
    this.u32((n - high * TWO_32) >>> 0);
  }

  /** A tuple of `fields` fields starts (each then written by `field`). */
  row(fields: number): void {
    this.room(2);
    this.u16(fields);
  }

  /** A field of column type `type`; null (or undefined) is SQL null. */
  field(value: unknown, type: CopyType): void {
    if (value == null) {
      this.room(4);
      this.u32(0xffffffff);
      return;
    }
    switch (type) {
      case "bytea":
        this.bytea(value as string | Uint8Array);
        break;
      case "int2":
        this.room(6);
        this.u32(2);
        this.u16(Number(value) & 0xffff);
        break;
      case "int4":
        this.room(8);
        this.u32(4);
        this.u32(Number(value) >>> 0);
        break;
      case "int8":
        this.room(12);
        this.u32(8);
        if (typeof value === "number" && Number.isSafeInteger(value)) this.i64(value);
        else {
          this.buf.writeBigInt64BE(BigInt(value as string | bigint), this.pos);
          this.pos += 8;
        }
        break;
      case "bool":
        this.room(5);
        this.u32(1);
        this.buf[this.pos++] = value ? 1 : 0;
        break;
      case "text":
        this.text(String(value), false);
        break;
      case "jsonb":
        this.text(String(value), true);
        break;
      case "numeric":
        this.numeric(
          typeof value === "string"
            ? value
            : // A large integral number's String is in exponent form; its BigInt's is all digits.
              typeof value === "number" && Number.isInteger(value)
              ? BigInt(value).toString()
              : String(value),
        );
        break;
      case "timestamptz":
        // Unix seconds, as `to_timestamp(n)` stores them: microseconds since 2000-01-01.
        this.room(12);
        this.u32(8);
        this.i64(Math.round((Number(value) - PG_EPOCH_SECONDS) * 1e6));
        break;
      case "bytea[]":
        this.array(value as readonly (string | Uint8Array)[], OID_BYTEA);
        break;
      case "int4[]":
        this.array(value as readonly number[], OID_INT4);
        break;
    }
  }

  /** Bytes, or 0x-hex (either case) decoded straight into the tuple. */
  private bytea(value: string | Uint8Array): void {
    if (typeof value !== "string") {
      this.room(4);
      this.u32(value.byteLength);
      this.append(value);
      return;
    }
    const digits = value.charCodeAt(1) === 120 && value.charCodeAt(0) === ZERO ? value.slice(2) : value;
    const size = digits.length >> 1;
    this.room(4 + size);
    // Node's hex decoding stops at the first pair that is not hex: a node's malformed value must fail, never be
    // stored shortened.
    const written = this.buf.write(digits, this.pos + 4, size, "hex");
    if (written !== size || digits.length !== size * 2)
      throw new Error(`malformed hex: ${value.slice(0, 80)}`);
    this.u32(size);
    this.pos += size;
  }

  /** UTF-8 text; `jsonb` with the format's version byte before it. */
  private text(s: string, jsonb: boolean): void {
    const lead = jsonb ? 1 : 0;
    this.room(4 + lead + s.length * 3);
    const start = this.pos;
    this.pos += 4;
    if (jsonb) this.buf[this.pos++] = 1;
    this.pos += this.buf.write(s, this.pos);
    this.buf.writeUInt32BE(this.pos - start - 4, start);
  }

  /**
   * A decimal (`-?digits[.digits]`) as numeric's base-10000 digits, grouped from the decimal point: PostgreSQL
   * strips the zero groups at either end itself.
   */
  private numeric(s: string): void {
    const negative = s.charCodeAt(0) === MINUS;
    const start = negative ? 1 : 0;
    let point = s.indexOf(".");
    if (point < 0) point = s.length;
    const intDigits = point - start;
    const fracDigits = point < s.length ? s.length - point - 1 : 0;
    if (intDigits < 1 || (point < s.length && fracDigits < 1))
      throw new Error(`not a decimal: ${s.slice(0, 80)}`);
    const intGroups = Math.ceil(intDigits / 4);
    const fracGroups = Math.ceil(fracDigits / 4);
    const groups = intGroups + fracGroups;
    this.room(4 + 8 + groups * 2);
    this.u32(8 + groups * 2);
    this.u16(groups);
    this.u16((intGroups - 1) & 0xffff);
    this.u16(negative ? NUMERIC_NEG : 0);
    this.u16(fracDigits);
    // The integer part's first group takes what is left over from fours; the fraction's last is padded with zeros.
    let i = start;
    let take = intDigits - (intGroups - 1) * 4;
    for (let g = 0; g < intGroups; g++) {
      this.u16(this.digits(s, i, i + take));
      i += take;
      take = 4;
    }
    i = point + 1;
    for (let g = 0; g < fracGroups; g++) {
      const end = Math.min(i + 4, s.length);
      this.u16(this.digits(s, i, end) * 10 ** (4 - (end - i)));
      i = end;
    }
  }

  /** The number the characters from..to of `s` spell (each a digit, or an error). */
  private digits(s: string, from: number, to: number): number {
    let n = 0;
    for (let i = from; i < to; i++) {
      const d = s.charCodeAt(i) - ZERO;
      if (d < 0 || d > 9) throw new Error(`not a decimal: ${s.slice(0, 80)}`);
      n = n * 10 + d;
    }
    return n;
  }

  /** A one-dimensional array without nulls (empty: no dimensions, as PostgreSQL writes '{}'). */
  private array(values: readonly (string | Uint8Array | number)[], oid: number): void {
    this.room(24);
    const start = this.pos;
    this.pos += 4;
    this.u32(values.length ? 1 : 0);
    this.u32(0);
    this.u32(oid);
    if (values.length) {
      this.u32(values.length);
      this.u32(1);
    }
    for (const v of values) {
      if (oid === OID_INT4) {
        this.room(8);
        this.u32(4);
        this.u32(Number(v) >>> 0);
      } else this.bytea(v as string | Uint8Array);
    }
    this.buf.writeUInt32BE(this.pos - start - 4, start);
  }

  /** Tuples (or the start of one) written before, as they are. */
  append(bytes: Uint8Array): void {
    this.room(bytes.byteLength);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.byteLength;
  }

  /** Bytes written so far. */
  get length(): number {
    return this.pos;
  }

  /**
   * What was written: a view of the writer's memory (nothing is written after it is taken), or a copy of its size
   * when that memory is more than twice it (a block's rows are held until its batch is written: a quiet chain's
   * hundreds of small blocks must not each hold a large buffer).
   */
  bytes(): Buffer {
    const view = this.buf.subarray(0, this.pos);
    return this.pos * 2 < this.buf.length ? Buffer.from(view) : view;
  }
}
