import { type AbiParameter, decodeAbiParameters, encodeAbiParameters } from "viem";
import { bytesToHex } from "./hex.js";
import type { AbiItemLike, AbiParameterLike, ConstructorArguments, DecodedArgument } from "./types.js";

export type ConstructorArgumentsResult =
  | { ok: true; args: ConstructorArguments | null }
  | { ok: false; message: string };

/**
 * Validates the bytes after the compiled creation code as constructor arguments: they must ABI-decode with the
 * constructor's inputs and re-encode to exactly the same bytes. Re-encoding rejects trailing garbage and
 * non-canonical encodings, so a spoofed suffix cannot ride along with a matching prefix.
 * No suffix and no constructor inputs: `args` is null.
 */
export function validateConstructorArguments(
  suffix: Uint8Array,
  abi: readonly AbiItemLike[] | null | undefined,
): ConstructorArgumentsResult {
  const inputs = abi?.find((item) => item.type === "constructor")?.inputs ?? [];
  if (inputs.length === 0) {
    if (suffix.length === 0) return { ok: true, args: null };
    if (!abi) return { ok: false, message: "Constructor arguments present but no ABI to decode them with." };
    return {
      ok: false,
      message: `The constructor takes no arguments, but ${suffix.length} bytes follow the creation code.`,
    };
  }
  const encoded = bytesToHex(suffix);
  const params = inputs as readonly AbiParameter[];
  let values: readonly unknown[];
  try {
    values = decodeAbiParameters(params, encoded);
  } catch (e) {
    return {
      ok: false,
      message: `Constructor arguments do not decode: ${(e as Error).message.split("\n")[0]}`,
    };
  }
  let reencoded: string;
  try {
    reencoded = encodeAbiParameters(params, values);
  } catch (e) {
    return {
      ok: false,
      message: `Constructor arguments do not re-encode: ${(e as Error).message.split("\n")[0]}`,
    };
  }
  if (reencoded.toLowerCase() !== encoded) {
    return {
      ok: false,
      message: "Constructor arguments do not re-encode to the same bytes (extra or non-canonical data).",
    };
  }
  const decoded: DecodedArgument[] = inputs.map((p, i) => ({
    name: p.name ?? "",
    type: canonicalType(p),
    value: toPlain(values[i]),
  }));
  return { ok: true, args: { encoded, decoded } };
}

function canonicalType(p: AbiParameterLike): string {
  if (!p.type.startsWith("tuple")) return p.type;
  return `(${(p.components ?? []).map(canonicalType).join(",")})${p.type.slice("tuple".length)}`;
}

/** Bigints become decimal strings so results stay JSON-serialisable. */
function toPlain(v: unknown): unknown {
  if (typeof v === "bigint") return v.toString();
  if (Array.isArray(v)) return v.map(toPlain);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, toPlain(x)]));
  }
  return v;
}
