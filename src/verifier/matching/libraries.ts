import { bytesEqual, bytesToHex, hexToBytes, stripHex } from "./hex.js";
import { record, setKeyedValue, type TransformationLog } from "./transformation-log.js";
import type { LinkReferences } from "./types.js";

/**
 * Library placeholders are 40 hex characters' worth of text: `__$<34 hex of keccak(fqn)>$__` (solc ≥ 0.5) or
 * `__<name>` padded with `_` (older). Hex never contains `_`, so any `__` starts one.
 */
const PLACEHOLDER_RE = /__.{36}__/g;

export function placeholdersToZeros(code: string): string {
  return code.replace(PLACEHOLDER_RE, "0".repeat(40));
}

export type CompiledBytes =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; reason: "invalid_hex" | "unlinked_library_placeholder"; offset?: number };

/**
 * Turns compiled hex into bytes, placeholders zeroed. A placeholder the link references do not name cannot be
 * linked from on-chain code, so it is an error rather than silently zero.
 */
export function compiledCodeToBytes(
  code: string,
  linkReferences: LinkReferences | null | undefined,
): CompiledBytes {
  const body = stripHex(code);
  const starts = new Set<number>();
  for (const libs of Object.values(linkReferences ?? {})) {
    for (const refs of Object.values(libs)) for (const r of refs) starts.add(r.start);
  }
  for (const m of body.matchAll(PLACEHOLDER_RE)) {
    const index = m.index;
    if (index % 2 !== 0 || !starts.has(index / 2)) {
      return { ok: false, reason: "unlinked_library_placeholder", offset: Math.floor(index / 2) };
    }
  }
  const bytes = hexToBytes(placeholdersToZeros(body));
  return bytes ? { ok: true, bytes } : { ok: false, reason: "invalid_hex" };
}

export type LinkError = {
  reason: "library_addresses_inconsistent" | "length_mismatch";
  id: string;
  offset: number;
};

/**
 * Copies the on-chain address into every link reference and records one `library` transformation per reference.
 * Libraries the compiler already linked (settings.libraries) have no references, hence no transformation.
 * All references of one library must carry the same on-chain address.
 */
export function applyLibraries(
  compiled: Uint8Array,
  onchain: Uint8Array,
  linkReferences: LinkReferences | null | undefined,
  log: TransformationLog,
): LinkError | null {
  for (const [file, libs] of Object.entries(linkReferences ?? {})) {
    for (const [lib, refs] of Object.entries(libs)) {
      const id = `${file}:${lib}`;
      let address: Uint8Array | undefined;
      for (const { start, length } of refs) {
        if (start + length > onchain.length || start + length > compiled.length) {
          return { reason: "length_mismatch", id, offset: start };
        }
        const value = onchain.slice(start, start + length);
        if (address && !bytesEqual(address, value))
          return { reason: "library_addresses_inconsistent", id, offset: start };
        address = value;
        compiled.set(value, start);
        record(log, "replace", "library", start, id);
        setKeyedValue(log, "libraries", id, bytesToHex(value));
      }
    }
  }
  return null;
}
