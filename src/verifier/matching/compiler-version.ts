/** Numeric `major.minor.patch` of a compiler version string; prerelease tags are ignored on purpose. */
export type SemVer = { major: number; minor: number; patch: number };

/**
 * Parses `0.8.18+commit.87f61d96`, `v0.4.1b1+commit.039d3692`, `v0.4.1-rc2+commit…`, `0.4.0rc6`.
 * A prerelease of x.y.z is treated as x.y.z: the bytecode format of a release candidate is the release's.
 */
export function parseCompilerVersion(version: string): SemVer | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
}

export function compareSemVer(a: SemVer, b: SemVer): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** True if `version` ≥ `min` (`"0.3.10"` form); false for unparsable versions. */
export function versionAtLeast(version: string, min: string): boolean {
  const v = parseCompilerVersion(version);
  const m = parseCompilerVersion(min);
  return v !== null && m !== null && compareSemVer(v, m) >= 0;
}
