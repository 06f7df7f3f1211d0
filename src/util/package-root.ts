import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder holding Lookout's package.json, whether we run from src/ (tests) or dist/ (built). */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error("package.json of lookout not found");
    dir = up;
  }
  return dir;
}

export const PACKAGE_ROOT = findRoot();
export const packagePath = (...parts: string[]) => join(PACKAGE_ROOT, ...parts);

/** The built CLI, as package.json's `bin` names it (the one place that says where the build puts it). */
export function builtCliPath(): string {
  const pkg = JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { bin: { lookout: string } };
  return packagePath(pkg.bin.lookout);
}
