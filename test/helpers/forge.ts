import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { packagePath } from "../../src/util/package-root.js";
import { runTool, type ToolResult } from "./run-tool.js";

export const FORGE = packagePath("node_modules/@foundry-rs/forge-linux-amd64/bin/forge");

/**
 * A native-style `solc` 0.8.26 for forge, over the npm solc-js build: it answers `--version` the way a native
 * build does and compiles `--standard-json` from stdin. Installed where forge's compiler manager (svm) looks, so
 * forge never downloads a compiler.
 */
export function installFakeSolc(home: string, version = "0.8.26", longVersion = "0.8.26+commit.8a97fa7a") {
  const path = join(home, ".svm", version, `solc-${version}`);
  mkdirSync(dirname(path), { recursive: true });
  const solcJs = packagePath(`node_modules/solc-${version}`);
  writeFileSync(
    path,
    `#!${process.execPath}
const fs = require("node:fs");
const path = require("node:path");
const args = process.argv.slice(2);
if (args.includes("--version")) {
  process.stdout.write("solc, the solidity compiler commandline interface\\nVersion: ${longVersion}.Linux.g++\\n");
  process.exit(0);
}
if (!args.includes("--standard-json")) {
  process.stderr.write("fake solc: only --version and --standard-json are supported\\n");
  process.exit(1);
}
const at = args.indexOf("--base-path");
const base = at >= 0 ? args[at + 1] : process.cwd();
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const solc = require(${JSON.stringify(solcJs)});
  const findImports = (p) => {
    try {
      return { contents: fs.readFileSync(path.resolve(base, p), "utf8") };
    } catch {
      return { error: "File not found: " + p };
    }
  };
  process.stdout.write(solc.compile(Buffer.concat(chunks).toString("utf8"), { import: findImports }));
});
`,
  );
  chmodSync(path, 0o755);
  return path;
}

export function writeProject(root: string, files: Record<string, string>) {
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), content);
  }
}

export type ForgeResult = ToolResult;

/** Runs forge asynchronously (the server under test answers it from this same process). */
export function runForge(
  args: string[],
  o: { cwd: string; home: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<ForgeResult> {
  return runTool(FORGE, args, {
    cwd: o.cwd,
    env: {
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
      HOME: o.home,
      NO_COLOR: "1",
      FOUNDRY_DISABLE_NIGHTLY_WARNING: "1",
      ...o.env,
    },
    ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
  });
}
