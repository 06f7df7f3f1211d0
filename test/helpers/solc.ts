import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Abi, Hex } from "viem";
import { packagePath } from "../../src/util/package-root.js";

const require = createRequire(import.meta.url);

export type CompiledArtifact = { abi: Abi; bytecode: Hex; deployedBytecode: Hex };

type SolcModule = { compile(input: string, opts?: unknown): string; version(): string };
const loaded = new Map<string, SolcModule>();

/** solc-js from npm (`solc` or an alias such as `solc-0.8.18`), loaded once per test process. */
export function solcModule(pkg = "solc"): SolcModule {
  let m = loaded.get(pkg);
  if (!m) {
    m = require(pkg) as SolcModule;
    loaded.set(pkg, m);
  }
  return m;
}

/** Compiles Solidity sources in-process for test fixtures (contracts that tests deploy). */
export function compileSolidity(
  sources: Record<string, string>,
  opts: { pkg?: string; settings?: Record<string, unknown>; importDir?: string } = {},
): Record<string, CompiledArtifact> {
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(Object.entries(sources).map(([k, v]) => [k, { content: v }])),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      ...opts.settings,
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
    },
  };
  // Loading soljson takes seconds: test artifacts are cached by input and compiler package.
  const cacheDir = packagePath("node_modules/.cache/lookout-test-solc");
  const pkgVersion = (require(`${opts.pkg ?? "solc"}/package.json`) as { version: string }).version;
  const key = createHash("sha256")
    .update(`${pkgVersion}\n${JSON.stringify(input)}`)
    .digest("hex");
  const cacheFile = join(cacheDir, `${key}.json`);
  if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, "utf8"));
  const findImports = (path: string) => {
    try {
      const resolved = require.resolve(path);
      return { contents: readFileSync(resolved, "utf8") };
    } catch {
      return { error: `not found: ${path}` };
    }
  };
  const out = JSON.parse(solcModule(opts.pkg).compile(JSON.stringify(input), { import: findImports }));
  const errors = (out.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
  if (errors.length)
    throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join("\n"));
  const result: Record<string, CompiledArtifact> = {};
  for (const file of Object.values(out.contracts) as Array<Record<string, any>>) {
    for (const [name, c] of Object.entries(file)) {
      result[name] = {
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      };
    }
  }
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(`${cacheFile}.tmp`, JSON.stringify(result));
  renameSync(`${cacheFile}.tmp`, cacheFile);
  return result;
}
