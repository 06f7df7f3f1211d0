import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One `src/…` or `test/…` path a document names, with where. */
export type NamedPath = { doc: string; line: number; path: string };

// A path as docs write it: src/ or test/, then path characters; a trailing `:line`, `(…)` or punctuation is not part
// of it. `{a,b}` names several paths (each is checked); placeholders (`<resource>`, `*`, `…`) make a pattern, not a
// path: such names are skipped.
const PATH = /(?<![\w./-])(?:src|test)\/[A-Za-z0-9_./<>*{},…-]*[A-Za-z0-9_/>}*]/g;

/** Every `src/…` and `test/…` path named in the Markdown files of `dir` (docs/). */
export function pathsNamedIn(root: string, dir = "docs"): NamedPath[] {
  const out: NamedPath[] = [];
  for (const name of readdirSync(join(root, dir))
    .filter((n) => n.endsWith(".md"))
    .sort()) {
    const lines = readFileSync(join(root, dir, name), "utf8").split("\n");
    lines.forEach((text, i) => {
      for (const m of text.matchAll(PATH)) {
        for (const path of expandBraces(m[0].replace(/[.,]+$/, ""))) {
          if (/[<>*{},…]/.test(path)) continue;
          out.push({ doc: `${dir}/${name}`, line: i + 1, path });
        }
      }
    });
  }
  return out;
}

/** `a/{b,c}/d` → `a/b/d`, `a/c/d` (one level, as docs write them). */
function expandBraces(path: string): string[] {
  const m = path.match(/^([^{]*)\{([^{}]*)\}(.*)$/);
  if (!m) return [path];
  return m[2]!.split(",").flatMap((alt) => expandBraces(`${m[1]}${alt}${m[3]}`));
}
