import { mkdirSync } from "node:fs";
import { packagePath } from "../../src/util/package-root.js";
import { type CompilerRegistry, createCompilers } from "../../src/verifier/compilers/index.js";

const silent = { info() {}, warn() {}, error() {}, debug() {} };

/**
 * A compiler registry that runs offline on the npm-installed solc-js versions (the list URLs answer nothing).
 * Its compilers dir (default: one shared by the test files of a run) remembers each soljson's version probe.
 */
export async function offlineCompilers(
  o: { dir?: string; concurrency?: number; timeoutMs?: number; memoryLimitMb?: number } = {},
): Promise<CompilerRegistry> {
  const dir = o.dir ?? packagePath("node_modules/.cache/lookout-test-compilers");
  mkdirSync(dir, { recursive: true });
  const compilers = createCompilers(
    {
      compilersDir: dir,
      solcListUrl: "http://127.0.0.1:1/list.json",
      solcjsListUrl: "http://127.0.0.1:1/bin/list.json",
      vyperListUrl: "http://127.0.0.1:1/vyper.json",
      listRefreshMs: 0,
      ...(o.concurrency ? { concurrency: o.concurrency } : {}),
      ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
      ...(o.memoryLimitMb ? { memoryLimitMb: o.memoryLimitMb } : {}),
    },
    silent,
  );
  await compilers.ready();
  return compilers;
}
