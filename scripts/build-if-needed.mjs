// Rebuilds dist/ when any source file is newer than the last build, so `npm start` always runs current code.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const marker = "dist/app/cli.js";
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}
if (!existsSync(marker) || newest("src") > statSync(marker).mtimeMs) {
  console.error("lookout: building (tsc)...");
  try {
    execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], {
      stdio: "inherit",
    });
  } catch {
    // tsc still emits JavaScript on type errors; `npm run typecheck` (CI) is where those fail.
    console.error("lookout: tsc reported type errors (see above); running the emitted JavaScript.");
  }
}
