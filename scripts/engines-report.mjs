#!/usr/bin/env node
// Lists the Node.js versions the installed production dependencies declare (`engines.node`), direct and nested,
// grouped by range, so `engines` in our package.json can be kept true to them. Run after `npm ci`:
//   node scripts/engines-report.mjs
// Development-only packages (package-lock's `dev`) are left out: they do not run in the service. "(ESM)" marks
// ES-module-only packages: CommonJS dependents load them with require(esm), unflagged from Node 20.19 and 22.12.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
const byRange = new Map();
for (const [path, meta] of Object.entries(lock.packages ?? {})) {
  if (!path || meta.dev || meta.devOptional) continue;
  const file = join(root, path, "package.json");
  if (!existsSync(file)) continue; // an optional package of another platform
  const pkg = JSON.parse(readFileSync(file, "utf8"));
  const range = pkg.engines?.node;
  if (!range) continue;
  const list = byRange.get(range) ?? [];
  list.push(`${pkg.name}@${pkg.version}${pkg.type === "module" ? " (ESM)" : ""}`);
  byRange.set(range, list);
}
const ours = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).engines?.node;
const lines = [`ours: ${ours}`];
for (const [range, list] of [...byRange].sort(([a], [b]) => a.localeCompare(b)))
  lines.push(`${range.padEnd(24)} ${[...new Set(list)].sort().join(", ")}`);
process.stdout.write(`${lines.join("\n")}\n`);
