// The build: every module of src/ transpiled on its own to dist/ (esbuild, no bundling, no type check), so
// `npm start` on a fresh clone builds in about a second. The type check is `npm run typecheck` (CI runs it).
// Usage: node scripts/build.mjs [--if-needed]. With --if-needed it builds only when a source file is newer than
// the built entry point, which is package.json's `bin.lookout` (the one place that names it).
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const entry = join(root, pkg.bin.lookout);
const srcDir = join(root, "src");
const outDir = join(root, "dist");

// A log file or collector gets JSON lines, like the service's own (src/util/logger.ts); a terminal plain ones.
const say = (msg) =>
  process.stderr.write(
    process.stderr.isTTY
      ? `lookout: ${msg}\n`
      : `${JSON.stringify({ level: 30, time: Date.now(), name: "build", msg })}\n`,
  );

function sources(dir, acc = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sources(p, acc);
    else if (p.endsWith(".ts") && !p.endsWith(".test.ts") && !p.endsWith(".d.ts")) acc.push(p);
  }
  return acc;
}
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

export function isBuildNeeded() {
  return !existsSync(entry) || newest(srcDir) > statSync(entry).mtimeMs;
}

export async function build() {
  const t0 = Date.now();
  const files = sources(srcDir);
  say(`building ${relative(root, outDir)}/ from ${files.length} files (esbuild, no type check)...`);
  const { build: esbuild } = await import("esbuild");
  // Built beside dist/ and swapped in, so a file deleted from src/ leaves no stale module behind.
  const tmp = `${outDir}.building-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    await esbuild({
      entryPoints: files,
      outdir: tmp,
      outbase: srcDir,
      bundle: false,
      format: "esm",
      platform: "node",
      target: "node20",
      sourcemap: true,
      tsconfig: join(root, "tsconfig.build.json"),
      logLevel: "warning",
    });
    rmSync(outDir, { recursive: true, force: true });
    renameSync(tmp, outDir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  say(`built in ${((Date.now() - t0) / 1000).toFixed(1)} s; run \`npm run typecheck\` for the type check.`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ifNeeded = process.argv.includes("--if-needed");
  if (!ifNeeded || isBuildNeeded()) {
    await build().catch((e) => {
      say(`build failed: ${e.message}`);
      process.exit(1);
    });
  }
}
