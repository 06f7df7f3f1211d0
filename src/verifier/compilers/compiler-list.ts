import { type CompilerVersion, parseVersion, versionKey } from "./version.js";

/** One downloadable build from a list in the solc-bin format (`{builds:[{path, longVersion, sha256, keccak256}]}`). */
export type ListedBuild = {
  version: CompilerVersion;
  key: string;
  /** `path` resolved against the list's URL. */
  url: string;
  /** Lower-case hex without 0x; the official solc lists carry both, the Vyper list only sha256. */
  sha256: string | undefined;
  keccak256: string | undefined;
};

function hex(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  const h = v.toLowerCase().replace(/^0x/, "");
  return /^[0-9a-f]{64}$/.test(h) ? h : undefined;
}

export function parseCompilerList(listUrl: string, body: unknown): ListedBuild[] {
  const builds = (body as { builds?: unknown } | null)?.builds;
  if (!Array.isArray(builds)) throw new Error(`${listUrl}: no "builds" array`);
  const out: ListedBuild[] = [];
  for (const b of builds as Array<Record<string, unknown>>) {
    if (typeof b?.path !== "string" || typeof b.longVersion !== "string") continue;
    const version = parseVersion(b.longVersion);
    const sha256 = hex(b.sha256);
    const keccak256 = hex(b.keccak256);
    // A build we cannot check is a build we do not run.
    if (!version || (!sha256 && !keccak256)) continue;
    out.push({ version, key: versionKey(version), url: new URL(b.path, listUrl).href, sha256, keccak256 });
  }
  return out;
}

export async function fetchCompilerList(
  listUrl: string,
  fetchImpl: typeof fetch,
  timeoutMs = 30_000,
): Promise<ListedBuild[]> {
  const res = await fetchImpl(listUrl, { signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`${listUrl}: HTTP ${res.status}`);
  return parseCompilerList(listUrl, await res.json());
}
