// Lists the dead exports of src/: names exported and used nowhere, neither in another file of src/, test/, bench/
// or scripts/ nor in their own file past the declaration (an export only its own file uses is not listed). A text search, not a type-aware one: a name used anywhere else counts as used, so it errs on the
// side of silence. `--check` exits 1 when there is any (CI runs it); an export meant for outside users would be
// listed in ALLOWED with the reason.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = process.cwd();
const ALLOWED = new Set([]);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.name === "node_modules" || e.name === "dist") return [];
    return e.isDirectory() ? walk(p) : [p];
  });
}

const code = (f) => /\.(ts|mts|mjs|js)$/.test(f) && !f.endsWith(".d.ts");
const all = ["src", "test", "bench", "scripts"].flatMap((d) => walk(join(root, d))).filter(code);
const texts = new Map(all.map((f) => [f, readFileSync(f, "utf8")]));
const sources = all.filter((f) => f.startsWith(join(root, "src")) && !f.endsWith(".test.ts"));

// `export const|let|function|async function|class|type|interface|enum NAME`; re-exports count as uses.
const EXPORT =
  /^export\s+(?:declare\s+)?(?:async\s+)?(?:const|let|function\*?|class|type|interface|enum)\s+([A-Za-z_$][\w$]*)/gm;

const unused = [];
for (const f of sources) {
  for (const m of texts.get(f).matchAll(EXPORT)) {
    const name = m[1];
    const key = `${relative(root, f)}:${name}`;
    if (ALLOWED.has(key)) continue;
    const word = new RegExp(`\\b${name.replace(/\$/g, "\\$")}\\b`, "g");
    const own = texts.get(f).match(word)?.length ?? 0;
    const used = own > 1 || all.some((g) => g !== f && texts.get(g).search(word) >= 0);
    if (!used) unused.push(key);
  }
}

console.log(`exports of src/ used nowhere: ${unused.length}`);
for (const u of unused) console.log(`  ${u}`);
if (process.argv.includes("--check") && unused.length) process.exit(1);
