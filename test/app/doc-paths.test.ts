import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { packagePath } from "../../src/util/package-root.js";
import { pathsNamedIn } from "../helpers/doc-paths.js";

describe("the docs name only paths that exist", () => {
  it("every src/… and test/… path in docs/*.md is a file or folder of the repository", () => {
    const named = pathsNamedIn(packagePath("."));
    expect(named.length).toBeGreaterThan(100);
    const missing = named
      .filter((n) => !existsSync(packagePath(n.path)))
      .map((n) => `${n.doc}:${n.line} ${n.path}`);
    expect(missing).toEqual([]);
  });
});
