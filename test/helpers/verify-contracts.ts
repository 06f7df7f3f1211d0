import { type Abi, encodeDeployData, type Hex } from "viem";
import type { CompilerRegistry } from "../../src/verifier/compilers/index.js";
import { withOutputSelection } from "../../src/verifier/service/index.js";

export type Built = {
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
  linkReferences: Record<string, Record<string, Array<{ start: number; length: number }>>>;
};

/** Compiles with the verifier's own registry (so the verify request hits its cache). */
export async function build(
  compilers: CompilerRegistry,
  version: string,
  sources: Record<string, string>,
  settings: Record<string, unknown>,
): Promise<Record<string, Built>> {
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(Object.entries(sources).map(([p, content]) => [p, { content }])),
    settings,
  };
  const out = await compilers.compile({ language: "Solidity", version, input: withOutputSelection(input) });
  const errors = (out.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const result: Record<string, Built> = {};
  for (const file of Object.values(out.contracts ?? {})) {
    for (const [name, c] of Object.entries(file as Record<string, any>)) {
      result[name] = {
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
        linkReferences: c.evm.bytecode.linkReferences ?? {},
      };
    }
  }
  return result;
}

export function deployData(b: Built, args: unknown[] = []): Hex {
  return args.length ? encodeDeployData({ abi: b.abi, bytecode: b.bytecode, args }) : b.bytecode;
}

/** Replaces every library placeholder with `address` (manual linking, as deployment tools do). */
export function link(code: Hex, address: Hex): Hex {
  return code.replace(/__\$[0-9a-f]{34}\$__/g, address.slice(2).toLowerCase()) as Hex;
}

export function standardJsonText(sources: Record<string, string>, settings: Record<string, unknown>): string {
  return JSON.stringify({
    language: "Solidity",
    sources: Object.fromEntries(Object.entries(sources).map(([p, content]) => [p, { content }])),
    settings,
  });
}

/** The version string the registry lists for `prefix` (e.g. "0.8.24" → "v0.8.24+commit.e11b9ed9"). */
export function versionFor(compilers: CompilerRegistry, prefix: string): string {
  const v = compilers.listSolidity().find((c) => c.version.startsWith(`v${prefix}+`));
  if (!v) throw new Error(`solc ${prefix} is not installed`);
  return v.version;
}
