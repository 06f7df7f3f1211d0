import { readFileSync, writeFileSync } from "node:fs";
import { packagePath } from "../src/util/package-root.js";

/** Replaces the section starting with `heading` in docs/benchmarks.md (appends it when absent); others stay. */
export function replaceBenchmarkSection(heading: string, section: string): void {
  const path = packagePath("docs/benchmarks.md");
  let doc: string;
  try {
    doc = readFileSync(path, "utf8");
  } catch {
    doc = "# Benchmarks\n";
  }
  const start = doc.indexOf(heading);
  if (start === -1) doc = `${doc.trimEnd()}\n\n${section}`;
  else {
    const next = doc.indexOf("\n## ", start + 3);
    // A blank line before the section that follows, as Markdown wants.
    doc = doc.slice(0, start) + section + (next === -1 ? "" : `\n${doc.slice(next + 1)}`);
  }
  writeFileSync(path, doc);
}

/** The table of a server-vs-baseline part: one row per server and page, medians over rounds. */
export function resultsTable(
  rows: ReadonlyArray<{
    target: string;
    page: string;
    rps: number;
    p50: number;
    p99: number;
    errors: number;
  }>,
): string {
  return [
    "| Server | Page | req/s | p50 ms | p99 ms | errors |",
    "|---|---|---:|---:|---:|---:|",
    ...rows.map(
      (x) =>
        `| ${x.target} | ${x.page} | ${x.rps.toFixed(0)} | ${x.p50.toFixed(1)} | ${x.p99.toFixed(1)} | ${x.errors} |`,
    ),
  ].join("\n");
}
