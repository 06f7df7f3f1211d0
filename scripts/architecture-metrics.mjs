// Measures the shape of src/ from its imports: the top-level parts, their layers, imports that run against the
// declared order, import cycles between files, folder loops inside explorer/, and request casts that a typed plugin
// makes unnecessary. `--check` exits 1 when a limit of docs/architecture.md is broken (CI runs it).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = process.cwd();
const src = join(root, "src");

// The declared order, ground first: a part may import its own tier and the tiers below, never one above.
const TIERS = [
  ["util", "errors", "config", "metrics", "db", "chain", "events", "chain-store", "http", "contracts"],
  ["verifier", "token-workers"],
  ["indexer", "explorer"],
  ["live", "verifier-apis", "rpc-api", "graphql", "multichain"],
  ["app"],
];
const LIMITS = { upward: 0, cycles: 0, layers: 9, casts: 0 };

// One owner per table fact: these tables are named in SQL only inside their owners (paths under src/); everyone
// else goes through the owner's functions and fragments (docs/architecture.md, "One owner per table fact").
const OWNED_TABLES = [
  { table: "indexer_state", owners: ["chain-store/"] },
  { table: "address_proxies", owners: ["chain-store/", "indexer/stages/"] },
];

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? walk(p) : [p];
  });
}

const files = walk(src).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/** file → files it imports (relative imports only; type-only imports count: they tie the parts as much). */
const graph = new Map();
for (const f of files) {
  const text = readFileSync(f, "utf8");
  const deps = new Set();
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    const target = resolve(dirname(f), spec).replace(/\.js$/, ".ts");
    if (target.startsWith(src)) deps.add(target);
  }
  graph.set(f, deps);
}

const partOf = (f) => relative(src, f).split("/")[0].replace(/\.ts$/, "");
const subPartOf = (f, part) => {
  const rel = relative(join(src, part), f).split("/");
  return rel.length > 1 ? rel[0] : `(${rel[0].replace(/\.ts$/, "")})`;
};

/** Tarjan's strongly connected components over a Map<node, Set<node>>. */
function components(g) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const c = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        c.push(w);
      } while (w !== v);
      out.push(c);
    }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/** Longest chain of imports, counted in nodes, over the graph with each cycle collapsed to one node. */
function layers(g) {
  const comps = components(g);
  const compOf = new Map();
  comps.forEach((c, i) => {
    for (const v of c) compOf.set(v, i);
  });
  const memo = new Map();
  const height = (i) => {
    if (memo.has(i)) return memo.get(i);
    memo.set(i, 1);
    let h = 1;
    for (const v of comps[i])
      for (const w of g.get(v) ?? []) if (compOf.get(w) !== i) h = Math.max(h, 1 + height(compOf.get(w)));
    memo.set(i, h);
    return h;
  };
  let max = 0;
  for (let i = 0; i < comps.length; i++) max = Math.max(max, height(i));
  return { layers: max, cycles: comps.filter((c) => c.length > 1) };
}

function partGraph(keyOf, filter = () => true) {
  const g = new Map();
  const arrows = new Map();
  for (const [f, deps] of graph) {
    if (!filter(f)) continue;
    const a = keyOf(f);
    if (!g.has(a)) g.set(a, new Set());
    for (const d of deps) {
      if (!filter(d)) continue;
      const b = keyOf(d);
      if (a === b) continue;
      g.get(a).add(b);
      const k = `${a} -> ${b}`;
      arrows.set(k, [...(arrows.get(k) ?? []), relative(root, f)]);
    }
  }
  return { g, arrows };
}

const top = partGraph(partOf);
const tierOf = (p) => TIERS.findIndex((t) => t.includes(p));
const unknown = [...top.g.keys()].filter((p) => tierOf(p) < 0);
const upward = [...top.arrows.entries()].filter(([k]) => {
  const [a, b] = k.split(" -> ");
  return tierOf(b) > tierOf(a);
});
const topShape = layers(top.g);
const fileShape = components(graph).filter((c) => c.length > 1);
const explorer = partGraph(
  (f) => subPartOf(f, "explorer"),
  (f) => partOf(f) === "explorer",
);
const explorerShape = layers(explorer.g);
const casts = files.flatMap((f) =>
  readFileSync(f, "utf8")
    .split("\n")
    .flatMap((line, i) =>
      /\breq\.(query|params|body) as\b/.test(line) ? [`${relative(root, f)}:${i + 1}`] : [],
    ),
);

const strayTableUses = OWNED_TABLES.flatMap(({ table, owners }) => {
  const use = new RegExp(`\\b(?:from|join|update|into)\\s+${table}\\b`, "i");
  return files
    .filter((f) => !owners.some((o) => relative(src, f).startsWith(o)))
    .flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .flatMap((line, i) => (use.test(line) ? [`${table}: ${relative(root, f)}:${i + 1}`] : [])),
    );
});

// Stages talk through typed members of the fetched block and the tables, never through each other's modules: a
// file of indexer/stages/<a>/ imports nothing of indexer/stages/<b>/, except from core/, the first stage, whose
// rows, token-log decoding and write helpers every later stage builds on.
const stagesDir = join(src, "indexer", "stages");
const stageOf = (f) => {
  const rel = relative(stagesDir, f).split("/");
  return rel[0].startsWith("..") || rel.length < 2 ? null : rel[0];
};
const crossStageImports = [...graph].flatMap(([f, deps]) => {
  const from = stageOf(f);
  if (!from) return [];
  return [...deps].flatMap((d) => {
    const to = stageOf(d);
    return to && to !== from && to !== "core" ? [`${relative(root, f)} -> ${relative(root, d)}`] : [];
  });
});

const report = {
  parts: top.g.size,
  arrows: top.arrows.size,
  layers: topShape.layers,
  upward: upward.map(([k, from]) => `${k} (${from.join(", ")})`),
  partsOutsideTheOrder: unknown,
  fileCycles: fileShape.map((c) => c.map((f) => relative(root, f)).join(" <-> ")),
  explorer: {
    parts: explorer.g.size,
    layers: explorerShape.layers,
    loops: explorerShape.cycles.map((c) => c.join(" <-> ")),
  },
  requestCasts: casts,
  strayTableUses,
  crossStageImports,
};

console.log(`top-level parts: ${report.parts}, arrows: ${report.arrows}, layers: ${report.layers}`);
console.log(`imports against the declared order: ${report.upward.length}`);
for (const u of report.upward) console.log(`  ${u}`);
if (unknown.length) console.log(`parts missing from the declared order: ${unknown.join(", ")}`);
console.log(`file import cycles: ${report.fileCycles.length}`);
for (const c of report.fileCycles) console.log(`  ${c}`);
console.log(
  `explorer/: ${report.explorer.parts} parts, ${report.explorer.layers} layers, folder loops: ${report.explorer.loops.length}`,
);
for (const c of report.explorer.loops) console.log(`  ${c}`);
console.log(`request casts (req.query/params/body as): ${casts.length}`);
for (const c of casts) console.log(`  ${c}`);
console.log(
  `owned tables named outside their owners (${OWNED_TABLES.map((t) => t.table).join(", ")}): ${strayTableUses.length}`,
);
for (const u of strayTableUses) console.log(`  ${u}`);
console.log(`stage imports of another stage (core/ aside): ${crossStageImports.length}`);
for (const u of crossStageImports) console.log(`  ${u}`);

if (process.argv.includes("--check")) {
  const broken = [];
  if (report.upward.length > LIMITS.upward) broken.push("imports against the declared order");
  if (unknown.length) broken.push("a top-level part missing from the declared order");
  if (report.fileCycles.length > LIMITS.cycles) broken.push("import cycles");
  if (report.layers > LIMITS.layers) broken.push(`more than ${LIMITS.layers} layers`);
  if (report.explorer.loops.length) broken.push("folder loops inside explorer/");
  if (casts.length > LIMITS.casts) broken.push("request casts");
  if (strayTableUses.length) broken.push("an owned table named outside its owner");
  if (crossStageImports.length) broken.push("a stage importing another stage");
  if (broken.length) {
    console.error(`architecture check failed: ${broken.join("; ")}`);
    process.exit(1);
  }
  console.log("architecture check passed");
}
