/**
 * PostgreSQL's COPY text format, built from the values the indexer already holds: hex strings go in as bytea
 * (`\\x…`) without becoming Buffers first, numbers and decimal strings as they are. One line per row, fields
 * separated by tabs, `\N` for null.
 */

/** Backslash, tab, newline and carriage return are COPY's delimiters; only free text needs this. */
const SPECIAL = /[\\\t\n\r]/;
export function escapeCopyText(s: string): string {
  if (!SPECIAL.test(s)) return s;
  return s.replace(/[\\\t\n\r]/g, (c) =>
    c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r",
  );
}

/** A bytea field from 0x-hex or bytes: `\\x` + hex (the backslash doubled for the COPY line). */
export function byteaCopyText(value: string | Uint8Array): string {
  if (typeof value === "string") return `\\\\x${value.startsWith("0x") ? value.slice(2) : value}`;
  const buf = Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return `\\\\x${buf.toString("hex")}`;
}

/** A bytea[] field from 0x-hex strings: `{\\\\xab,\\\\xcd}` (array escaping, then COPY's). */
export function byteaArrayCopyText(values: readonly string[]): string {
  return `{${values.map((v) => `\\\\${byteaCopyText(v)}`).join(",")}}`;
}

/** The last time formatted: the rows of a block (its balance changes, thousands on a busy chain) share its time. */
let lastSeconds = Number.NaN;
let lastText = "";

/** A timestamptz field from Unix seconds (what `to_timestamp(n)` stores). */
export function unixCopyText(seconds: number): string {
  if (seconds !== lastSeconds) {
    lastText = new Date(seconds * 1000).toISOString();
    lastSeconds = seconds;
  }
  return lastText;
}

/**
 * The field for a value of element type `type` (`bytea`, `text`, `bool`, `int8`, `numeric`, …): only bytea and
 * free text need more than `String`.
 */
export function copyField(value: unknown, type: string): string {
  if (value == null) return "\\N";
  if (type === "bytea") return byteaCopyText(value as string | Uint8Array);
  if (typeof value === "boolean") return value ? "t" : "f";
  if (typeof value === "string") return type === "text" ? escapeCopyText(value) : value;
  return String(value);
}
