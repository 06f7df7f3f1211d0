import { InvalidInputError } from "../../errors/base.js";

/** A compiler version as the lists name it: 0.8.26+commit.8a97fa7a, 0.8.26-nightly.2024.5.20+commit.x, 0.3.1. */
export type CompilerVersion = {
  major: number;
  minor: number;
  patch: number;
  prerelease: string | undefined;
  commit: string | undefined;
  /** The prerelease was written PEP 440 style, without a hyphen (`0.4.1b1`): shown as written. */
  hyphenless?: true;
};

// Vyper names its prereleases PEP 440 style, without a hyphen (0.4.1b1, 0.4.0rc6); they parse as 0.4.1-b1.
const VERSION_RE =
  /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+)|((?:a|b|rc)\d+))?(?:\+commit\.([0-9a-fA-F]+))?$/;

export function parseVersion(text: string): CompilerVersion | undefined {
  const m = VERSION_RE.exec(text.trim());
  if (!m) return undefined;
  return {
    major: Number(m[1]),
    minor: Number(m[2]),
    patch: Number(m[3]),
    prerelease: m[4] ?? m[5],
    commit: m[6]?.toLowerCase(),
    ...(m[5] ? { hyphenless: true as const } : {}),
  };
}

/** Without the leading `v`: the key used everywhere internally and in COMPILERS_DIR. */
export function versionKey(v: CompilerVersion): string {
  const pre = v.prerelease ? `-${v.prerelease}` : "";
  const commit = v.commit ? `+commit.${v.commit}` : "";
  return `${v.major}.${v.minor}.${v.patch}${pre}${commit}`;
}

/**
 * As shown to users: v0.8.26+commit.8a97fa7a. A prerelease keeps the spelling of the list that named it: Vyper's
 * `v0.4.1b1+commit.039d3692` (what its compiler and its release list say), `v0.4.1-rc2+commit.305813c9` where a list
 * writes the hyphen.
 */
export function displayVersion(v: CompilerVersion): string {
  if (!v.hyphenless) return `v${versionKey(v)}`;
  const commit = v.commit ? `+commit.${v.commit}` : "";
  return `v${v.major}.${v.minor}.${v.patch}${v.prerelease ?? ""}${commit}`;
}

export function semverOf(v: CompilerVersion): string {
  return `${v.major}.${v.minor}.${v.patch}`;
}

function comparePrerelease(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  // A release sorts after its prereleases and nightlies.
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  const pa = a.split(".");
  const pb = b.split(".");
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x) ? Number(x) : Number.NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : Number.NaN;
    const c = !Number.isNaN(nx) && !Number.isNaN(ny) ? nx - ny : x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return c;
  }
  return 0;
}

/** Ascending order. */
export function compareVersions(a: CompilerVersion, b: CompilerVersion): number {
  return (
    a.major - b.major ||
    a.minor - b.minor ||
    a.patch - b.patch ||
    comparePrerelease(a.prerelease, b.prerelease) ||
    (a.commit ?? "").localeCompare(b.commit ?? "")
  );
}

/** True when `v` is at least major.minor.patch (prereleases of that version count as below it). */
export function atLeast(v: CompilerVersion, semver: string): boolean {
  const [ma, mi, pa] = semver.split(".").map(Number) as [number, number, number];
  const c = v.major - ma || v.minor - mi || v.patch - pa;
  if (c !== 0) return c > 0;
  return v.prerelease === undefined;
}

/**
 * Finds the one known version a request names. The request may omit the `v`, shorten (or lengthen) the commit
 * hash (either one a prefix of the other), or omit the commit when only one build of that version exists.
 */
export function resolveVersion<T extends { version: CompilerVersion }>(
  requested: string,
  known: readonly T[],
  language: string,
): T {
  const want = parseVersion(requested);
  if (!want) {
    throw new InvalidInputError(`Invalid ${language} compiler version: ${JSON.stringify(requested)}`, {
      field: "compilerVersion",
    });
  }
  const matches = known.filter(({ version: v }) => {
    if (v.major !== want.major || v.minor !== want.minor || v.patch !== want.patch) return false;
    if (v.prerelease !== want.prerelease) return false;
    if (want.commit === undefined || v.commit === undefined) return true;
    return v.commit.startsWith(want.commit) || want.commit.startsWith(v.commit);
  });
  const exact = matches.filter((m) => m.version.commit === want.commit);
  const found = exact.length === 1 ? exact : matches;
  if (found.length === 1) return found[0]!;
  if (found.length === 0) {
    throw new InvalidInputError(`Unknown ${language} compiler version: ${requested}`, {
      field: "compilerVersion",
    });
  }
  throw new InvalidInputError(`Ambiguous ${language} compiler version: ${requested}; give the commit hash`, {
    field: "compilerVersion",
    details: found.map((f) => displayVersion(f.version)).join(", "),
  });
}
