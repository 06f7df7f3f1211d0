/**
 * The shared verification fixtures (Verifier Alliance cases, recorded Vyper outputs) live in `../shared/fixtures`
 * beside the repository, not in it. CI has them; a plain clone may not. Tests that need them go through this module:
 * with the folder present they run, without it they are skipped with the reason in their name and one warning per
 * file, instead of failing at collection.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe } from "vitest";
import { PACKAGE_ROOT } from "../../src/util/package-root.js";

/** `LOOKOUT_SHARED_FIXTURES` points elsewhere (or at a missing folder, to try the skipped run). */
export const SHARED_FIXTURES = resolve(
  process.env.LOOKOUT_SHARED_FIXTURES ?? join(PACKAGE_ROOT, "..", "shared", "fixtures"),
);

export const sharedFixturesPresent = existsSync(SHARED_FIXTURES) && statSync(SHARED_FIXTURES).isDirectory();

export const SHARED_FIXTURES_MISSING = `skipped: shared fixtures not found at ${SHARED_FIXTURES} (../shared/fixtures beside the repository)`;

if (!sharedFixturesPresent) console.warn(SHARED_FIXTURES_MISSING);

/** `describe`, or `describe.skip` with the reason appended to the name when the fixtures are absent. */
export function describeWithSharedFixtures(name: string, fn: () => void): void {
  if (sharedFixturesPresent) describe(name, fn);
  else describe.skip(`${name} (${SHARED_FIXTURES_MISSING})`, fn);
}

/** Paths of the `.json` files in a folder of the fixtures (relative, e.g. `verifier-alliance/solidity`), sorted. */
export function sharedFixturePaths(folder: string): string[] {
  const dir = join(SHARED_FIXTURES, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => join(dir, f));
}

/**
 * The parsed `.json` files of the given fixture folders, keyed by their path (`…/verifier-alliance/solidity/x.json`,
 * always with `/`); empty when the fixtures are absent.
 */
export function readSharedFixtures(...folders: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const folder of folders)
    for (const path of sharedFixturePaths(folder))
      out[path.split("\\").join("/")] = JSON.parse(readFileSync(path, "utf8"));
  return out;
}
