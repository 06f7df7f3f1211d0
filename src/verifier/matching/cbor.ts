/**
 * A small, strict CBOR decoder for the subset compilers emit in bytecode auxdata: unsigned ints, byte and text
 * strings, arrays, maps with text keys, booleans and null. Definite lengths only; anything else is "not auxdata".
 */

export type CborValue =
  | number
  | Uint8Array
  | string
  | boolean
  | null
  | CborValue[]
  | { [key: string]: CborValue };

export type CborDecoded = { value: CborValue; end: number };

const MAX_DEPTH = 8;

/** Decodes one CBOR item starting at `start`; returns null if the bytes are not a well-formed item of the subset. */
export function decodeCborItem(bytes: Uint8Array, start: number, end = bytes.length): CborDecoded | null {
  return item(bytes, start, end, 0);
}

function readArgument(
  bytes: Uint8Array,
  pos: number,
  end: number,
  info: number,
): { arg: number; pos: number } | null {
  if (info < 24) return { arg: info, pos };
  const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0;
  if (size === 0 || pos + size > end) return null; // indefinite lengths and reserved values are out of the subset
  let arg = 0;
  for (let i = 0; i < size; i++) arg = arg * 256 + (bytes[pos + i] as number);
  if (!Number.isSafeInteger(arg)) return null;
  return { arg, pos: pos + size };
}

function item(bytes: Uint8Array, start: number, end: number, depth: number): CborDecoded | null {
  if (depth > MAX_DEPTH || start >= end) return null;
  const initial = bytes[start] as number;
  const major = initial >> 5;
  const info = initial & 0x1f;
  if (major === 7) {
    if (info === 20) return { value: false, end: start + 1 };
    if (info === 21) return { value: true, end: start + 1 };
    if (info === 22) return { value: null, end: start + 1 };
    return null;
  }
  const head = readArgument(bytes, start + 1, end, info);
  if (!head) return null;
  const { arg } = head;
  let pos = head.pos;
  switch (major) {
    case 0:
      return { value: arg, end: pos };
    case 2:
      if (pos + arg > end) return null;
      return { value: bytes.slice(pos, pos + arg), end: pos + arg };
    case 3: {
      if (pos + arg > end) return null;
      const text = new TextDecoder("utf-8", { fatal: true });
      try {
        return { value: text.decode(bytes.subarray(pos, pos + arg)), end: pos + arg };
      } catch {
        return null;
      }
    }
    case 4: {
      const out: CborValue[] = [];
      for (let i = 0; i < arg; i++) {
        const next = item(bytes, pos, end, depth + 1);
        if (!next) return null;
        out.push(next.value);
        pos = next.end;
      }
      return { value: out, end: pos };
    }
    case 5: {
      const out: { [key: string]: CborValue } = {};
      for (let i = 0; i < arg; i++) {
        const key = item(bytes, pos, end, depth + 1);
        if (!key || typeof key.value !== "string" || Object.hasOwn(out, key.value)) return null;
        const val = item(bytes, key.end, end, depth + 1);
        if (!val) return null;
        out[key.value] = val.value;
        pos = val.end;
      }
      return { value: out, end: pos };
    }
    default:
      // Negative ints, tags: never in compiler auxdata.
      return null;
  }
}

export function isCborMap(v: CborValue | undefined): v is { [key: string]: CborValue } {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}
