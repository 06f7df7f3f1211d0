import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { packagePath } from "../../src/util/package-root.js";
import { runTool, type ToolResult } from "./run-tool.js";

/** Hardhat's CLI entry (its `bin`), the script `npx hardhat` runs. */
export const HARDHAT_CLI = packagePath("node_modules/hardhat/internal/cli/bootstrap.js");

export const HARDHAT_SOLC = { version: "0.8.26", longVersion: "0.8.26+commit.8a97fa7a" } as const;

export type HardhatProjectOptions = {
  rpcUrl: string;
  chainId: number;
  privateKey: string;
  /** Lookout's Etherscan-compatible endpoint, `http://HOST:PORT/api`. */
  apiUrl: string;
  browserUrl: string;
  /** Which hardhat-verify backend talks to Lookout: the Etherscan client or its Blockscout variant. */
  verifier: "etherscan" | "blockscout";
  sources: Record<string, string>;
};

/** The network name the generated config uses for the anvil chain. */
export const HARDHAT_NETWORK = "lookoutLocal";

/**
 * `hardhat.config.js` for a project that compiles offline and verifies against Lookout. Hardhat 2 downloads solc
 * in the `TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD` subtask; overriding it hands Hardhat the solc-js build that npm
 * installed, so no compiler list or binary is fetched. The long version must carry the commit: hardhat-verify sends
 * it as `compilerversion` (`v` + longVersion) and writes it into the build info.
 */
export function hardhatConfig(o: HardhatProjectOptions): string {
  const chain = {
    network: HARDHAT_NETWORK,
    chainId: o.chainId,
    urls: { apiURL: o.apiUrl, browserURL: o.browserUrl },
  };
  const explorer =
    o.verifier === "etherscan"
      ? {
          // hardhat-verify 2.0 needs a key even for a custom chain; Lookout ignores it.
          etherscan: { apiKey: { [HARDHAT_NETWORK]: "lookout" }, customChains: [chain] },
        }
      : {
          // Only the Blockscout backend: Etherscan off, so the run's output is this backend's alone.
          etherscan: { enabled: false },
          blockscout: { enabled: true, customChains: [chain] },
        };
  const config = {
    solidity: {
      version: HARDHAT_SOLC.version,
      settings: { optimizer: { enabled: true, runs: 200 } },
    },
    networks: { [HARDHAT_NETWORK]: { url: o.rpcUrl, chainId: o.chainId, accounts: [o.privateKey] } },
    ...explorer,
    // Said explicitly: left undefined, hardhat-verify prints a notice about Sourcify on every run.
    sourcify: { enabled: false },
  };
  return `const { subtask } = require("hardhat/config");
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require("hardhat/builtin-tasks/task-names");
require("@nomicfoundation/hardhat-verify");

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args, hre, runSuper) => {
  if (args.solcVersion !== ${JSON.stringify(HARDHAT_SOLC.version)}) return runSuper(args);
  return {
    compilerPath: require.resolve("solc-${HARDHAT_SOLC.version}/soljson.js"),
    isSolcJs: true,
    version: ${JSON.stringify(HARDHAT_SOLC.version)},
    longVersion: ${JSON.stringify(HARDHAT_SOLC.longVersion)},
  };
});

module.exports = ${JSON.stringify(config, null, 2)};
`;
}

/**
 * A throwaway Hardhat project in `root`. Its node_modules is a link to Lookout's, so `hardhat`, hardhat-verify and
 * `solc-0.8.26` resolve from the project the way they would after `npm i` there (Hardhat refuses to run from an
 * installation the project cannot resolve).
 */
export function writeHardhatProject(root: string, o: HardhatProjectOptions) {
  const files: Record<string, string> = {
    // No "type": the config and Hardhat's generated files are CommonJS.
    "package.json": JSON.stringify({ name: "lookout-hardhat-fixture", private: true }),
    "hardhat.config.js": hardhatConfig(o),
    ...o.sources,
  };
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), content);
  }
  symlinkSync(packagePath("node_modules"), join(root, "node_modules"), "dir");
}

export type HardhatResult = ToolResult;

/** `npx hardhat <args>` in `cwd`, asynchronously (the server under test answers it from this same process). */
export function runHardhat(args: string[], o: { cwd: string; timeoutMs?: number }): Promise<HardhatResult> {
  return runTool(process.execPath, [HARDHAT_CLI, ...args], {
    cwd: o.cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: o.cwd,
      NO_COLOR: "1",
      FORCE_COLOR: "0",
      // Never ask about telemetry, never phone home (there is no network besides the test's own ports).
      HARDHAT_DISABLE_TELEMETRY_PROMPT: "true",
      CI: "true",
    },
    ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
  });
}
