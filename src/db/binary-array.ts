/**
 * `bytea[]` parameters in PostgreSQL's binary array format, for node-postgres (which sends a Buffer parameter in
 * binary). Given an array of Buffers it writes every element as `\\x` and hex inside one text literal, which
 * PostgreSQL parses back, and the writer thread (pg-writer.ts) is sent each Buffer as an object of its own. In
 * binary each element is its length and its bytes, in one Buffer that moves to the thread uncopied.
 */

/** PostgreSQL's type oid of `bytea`, the elements' type named in the array's header (`array_recv` checks it). */
const BYTEA_OID = 17;

/** Whether `value` is an array only of bytes and nulls, with bytes in it: a `bytea[]` parameter. */
function isByteaArray(value: unknown): value is ReadonlyArray<Uint8Array | null> {
  if (!Array.isArray(value) || value.length === 0) return false;
  let bytes = false;
  for (const v of value) {
    if (v instanceof Uint8Array) bytes = true;
    else if (v !== null) return false;
  }
  return bytes;
}

/**
 * The binary form of a one-dimensional `bytea[]`: dimensions, a nulls flag, the element type, the length and lower
 * bound of the dimension, then each element as its length (-1: null) and bytes. In memory of its own, so that it
 * can move to another thread uncopied.
 */
export function byteaArrayParam(values: ReadonlyArray<Uint8Array | null>): Buffer {
  let size = 20;
  let nulls = 0;
  for (const v of values) {
    if (v) size += 4 + v.byteLength;
    else {
      size += 4;
      nulls = 1;
    }
  }
  const out = Buffer.allocUnsafeSlow(size);
  out.writeInt32BE(1, 0);
  out.writeInt32BE(nulls, 4);
  out.writeInt32BE(BYTEA_OID, 8);
  out.writeInt32BE(values.length, 12);
  out.writeInt32BE(1, 16);
  let pos = 20;
  for (const v of values) {
    if (!v) {
      out.writeInt32BE(-1, pos);
      pos += 4;
      continue;
    }
    out.writeInt32BE(v.byteLength, pos);
    out.set(v, pos + 4);
    pos += 4 + v.byteLength;
  }
  return out;
}

/** `params` with each `bytea[]` (an array only of bytes and nulls) in binary; the others as they are. */
export function withBinaryByteaArrays(params: readonly unknown[] | undefined): unknown[] | undefined {
  if (!params) return undefined;
  let out: unknown[] | undefined;
  params.forEach((p, i) => {
    if (!isByteaArray(p)) return;
    out ??= [...params];
    out[i] = byteaArrayParam(p);
  });
  return out ?? (params as unknown[]);
}
