import { existsSync } from "node:fs";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { ListedBuild } from "./compiler-list.js";
import type { Logger } from "./types.js";
import { parseVersion, semverOf, versionKey } from "./version.js";

export type InstalledSolcJs = { key: string; soljsonPath: string };

/** soljson.js files of the `solc` package and its npm aliases (`solc-0.8.26` = npm:solc@0.8.26) beside it. */
export async function findSoljsonFiles(): Promise<Array<{ semver: string; soljsonPath: string }>> {
  let nodeModules: string;
  try {
    nodeModules = dirname(dirname(createRequire(import.meta.url).resolve("solc/package.json")));
  } catch {
    return [];
  }
  const out: Array<{ semver: string; soljsonPath: string }> = [];
  for (const name of await readdir(nodeModules).catch(() => [] as string[])) {
    if (!/^solc(-[\w.-]+)?$/.test(name)) continue;
    const dir = join(nodeModules, name);
    try {
      const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      const soljsonPath = join(dir, "soljson.js");
      if (pkg.name === "solc" && pkg.version && existsSync(soljsonPath))
        out.push({ semver: pkg.version, soljsonPath });
    } catch {
      // not a package
    }
  }
  return out;
}

type ProbeCache = Record<string, { size: number; mtimeMs: number; key: string }>;

/**
 * The full version (with commit) of each installed soljson: from the solc-js list when it is available, else from
 * an earlier probe remembered in COMPILERS_DIR, else by asking the soljson itself (in a worker, takes a second;
 * the pool runs several at once). `onEach` hears of every file as it is settled, found or skipped.
 */
export async function discoverInstalledSolcJs(opts: {
  compilersDir: string;
  solcjsList: ListedBuild[] | undefined;
  probe: (soljsonPath: string) => Promise<string>;
  logger: Logger;
  files?: Array<{ semver: string; soljsonPath: string }>;
  onEach?: (found: InstalledSolcJs | null) => void;
}): Promise<InstalledSolcJs[]> {
  const cacheFile = join(opts.compilersDir, "installed-solcjs.json");
  const cache: ProbeCache = JSON.parse(await readFile(cacheFile, "utf8").catch(() => "{}"));
  let dirty = false;
  const one = async ({ semver, soljsonPath }: { semver: string; soljsonPath: string }) => {
    const fromList = opts.solcjsList?.filter((b) => semverOf(b.version) === semver && !b.version.prerelease);
    if (fromList?.length === 1) return { key: fromList[0]!.key, soljsonPath };
    const st = await stat(soljsonPath);
    const known = cache[soljsonPath];
    if (known && known.size === st.size && known.mtimeMs === st.mtimeMs)
      return { key: known.key, soljsonPath };
    try {
      // e.g. "0.8.26+commit.8a97fa7a.Emscripten.clang"
      const reported = (await opts.probe(soljsonPath)).replace(/\.Emscripten.*$/, "");
      const v = parseVersion(reported);
      if (!v) throw new Error(`unexpected version ${reported}`);
      const key = versionKey(v);
      cache[soljsonPath] = { size: st.size, mtimeMs: st.mtimeMs, key };
      dirty = true;
      return { key, soljsonPath };
    } catch (e) {
      opts.logger.warn({ soljsonPath, err: String(e) }, "installed solc-js skipped");
      return null;
    }
  };
  const settled = await Promise.all(
    (opts.files ?? (await findSoljsonFiles())).map(async (f) => {
      const found = await one(f).catch(() => null);
      opts.onEach?.(found);
      return found;
    }),
  );
  if (dirty) await writeFile(cacheFile, JSON.stringify(cache, null, 1)).catch(() => undefined);
  return settled.filter((x): x is InstalledSolcJs => x !== null);
}
