import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Abi, Hex } from "viem";
import { LookoutError } from "../../errors/base.js";
import { packagePath } from "../../util/package-root.js";

const require = createRequire(import.meta.url);

/** The source unit name under which DemoTokens.sol imports the shared sample tokens. */
export const SAMPLE_TOKENS = "lookout/contracts/SampleTokens.sol";

export type DemoArtifact = { abi: Abi; bytecode: Hex };

/** Compiles src/app/demo/DemoTokens.sol with the solc npm package, OpenZeppelin imports from node_modules. */
export function compileDemoContracts(): Record<string, DemoArtifact> {
  const solc = require("solc") as { compile(input: string, o: unknown): string };
  const input = {
    language: "Solidity",
    sources: {
      "DemoTokens.sol": { content: readFileSync(packagePath("src/app/demo/DemoTokens.sol"), "utf8") },
      // Shared with the tests; given as a source so no import callback reads our own files.
      [SAMPLE_TOKENS]: { content: readFileSync(packagePath("src/contracts/SampleTokens.sol"), "utf8") },
    },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
    },
  };
  const findImports = (path: string) => {
    try {
      return { contents: readFileSync(require.resolve(path), "utf8") };
    } catch {
      return { error: `not found: ${path}` };
    }
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
  const errors = (out.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
  if (errors.length)
    throw new LookoutError({
      code: "demo_compile_failed",
      shortMessage: "Compiling the demo contracts failed.",
      details: errors.map((e: { formattedMessage: string }) => e.formattedMessage).join("\n"),
    });
  const result: Record<string, DemoArtifact> = {};
  for (const [name, c] of Object.entries(
    out.contracts["DemoTokens.sol"] as Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>,
  ))
    result[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  return result;
}
