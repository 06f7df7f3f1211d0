import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { sidecarOf } from "./downloader.js";
import { parseVersion, versionKey } from "./version.js";

/** Where each kind of compiler lives in COMPILERS_DIR: `<dir>/<version key>/<file>`, with `<file>.checksum`. */
export const STORE = {
  solcNative: { subdir: "solc-linux-amd64", file: "solc", executable: true },
  solcJs: { subdir: "solcjs", file: "soljson.js", executable: false },
  vyperNative: { subdir: "vyper-linux-amd64", file: "vyper", executable: true },
} as const;
export type StoreKind = keyof typeof STORE;

export function storePath(compilersDir: string, kind: StoreKind, key: string): string {
  const s = STORE[kind];
  return join(compilersDir, s.subdir, key, s.file);
}

/** Version keys with a complete file (the checksum beside it is written before the file gets its name). */
export async function scanStore(compilersDir: string, kind: StoreKind): Promise<Set<string>> {
  const found = new Set<string>();
  const dir = join(compilersDir, STORE[kind].subdir);
  const entries = await readdir(dir).catch(() => [] as string[]);
  for (const name of entries) {
    const v = parseVersion(name);
    if (!v || versionKey(v) !== name) continue;
    const file = storePath(compilersDir, kind, name);
    if (existsSync(file) && existsSync(sidecarOf(file))) found.add(name);
  }
  return found;
}
