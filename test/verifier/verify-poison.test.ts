import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packagePath } from "../../src/util/package-root.js";
import type { CompilerRegistry } from "../../src/verifier/compilers/index.js";
import { offlineCompilers } from "../helpers/compilers.js";
import { startVerifierEnv, type VerifierEnv } from "../helpers/verify.js";
import { build, deployData, standardJsonText, versionFor } from "../helpers/verify-contracts.js";

const SIMPLE = {
  "Simple.sol":
    "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Simple { uint256 public v = 7; }\n",
};
const SETTINGS = { optimizer: { enabled: false } };
const HEAD =
  "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract P { function f() public pure returns (uint256) { return ";
/** The two inputs that broke a solc-js worker for every later request on its version. */
const POISON: Array<[string, string]> = [
  ["a 300,000-term expression", `${HEAD}${Array(300_000).fill("1").join(" + ")}; } }\n`],
  ["2 MB of nested parentheses", `${HEAD}${"(".repeat(1_000_000)}1${")".repeat(1_000_000)}; } }\n`],
];

describe("one hostile input does not break verification for everyone", () => {
  let env: VerifierEnv;
  let compilers: CompilerRegistry;
  let version: string;
  let address: string;
  beforeAll(async () => {
    // One worker, so the poisoned worker is the one the next request would get.
    compilers = await offlineCompilers({
      dir: packagePath("node_modules/.cache/lookout-test-verify-compilers"),
      concurrency: 1,
      timeoutMs: 60_000,
    });
    env = await startVerifierEnv({ compilers });
    version = versionFor(compilers, "0.8.26");
    const built = await build(compilers, version, SIMPLE, SETTINGS);
    address = await env.deploy(deployData(built.Simple!));
    await env.sync();
  });
  afterAll(async () => {
    await env?.stop();
    await compilers?.close();
  });

  const verify = (sources: Record<string, string>) =>
    env.post("/api/v1/solidity/sources:verify-standard-json", {
      contracts: [{ chainId: String(env.chain.anvil.chainId), address }],
      compiler: version,
      input: standardJsonText(sources, SETTINGS),
    });

  it.each(POISON)(
    "answers %s in words, then verifies a valid contract on the same version",
    async (_, text) => {
      const bad = await verify({ "P.sol": text });
      expect(bad.statusCode).toBe(200);
      // solc-js overflows its stack on one and traps on the other; either way a message, and the worker is gone.
      expect(bad.body.compilationFailure?.errors).toEqual([
        expect.stringMatching(
          /^(the compiler crashed: .+|the compiler ran out of memory .+|compilation timed out after \d+ ms)$/,
        ),
      ]);
      const good = await verify(SIMPLE);
      expect(good.statusCode).toBe(200);
      expect(good.body.contractVerificationResults.items[0]).toMatchObject({ status: "FULLY_VERIFIED" });
    },
  );
});

describe("the solc-js memory limit bounds the compiler's WebAssembly memory too", () => {
  let compilers: CompilerRegistry;
  afterAll(async () => {
    await compilers?.close();
  });

  it("a compile that outgrows it is 'out of memory'; the next compile gets a fresh worker", async () => {
    // 40 MB: a soljson loads and compiles small contracts in it; 1,500 functions need more (about 60 MB).
    compilers = await offlineCompilers({
      dir: packagePath("node_modules/.cache/lookout-test-verify-compilers"),
      concurrency: 1,
      memoryLimitMb: 40,
    });
    const version = versionFor(compilers, "0.8.26");
    const fns = Array.from(
      { length: 1500 },
      (_, i) => `function f${i}(uint a) public pure returns (uint) { return a * ${i} + ${i}; }`,
    ).join("\n");
    const selection = { outputSelection: { "*": { "*": ["evm.bytecode.object"] } } };
    const big = {
      language: "Solidity",
      sources: {
        "Big.sol": { content: `pragma solidity ^0.8.0;\ncontract Big {\n${fns}\n} // ${Date.now()}` },
      },
      settings: selection,
    };
    await expect(compilers.compile({ language: "Solidity", version, input: big })).rejects.toMatchObject({
      kind: "memory",
      message: expect.stringMatching(/ran out of memory \(limit 40 MB\)/),
    });
    const small = {
      language: "Solidity",
      sources: { "S.sol": { content: `pragma solidity ^0.8.0;\ncontract S {} // ${Date.now()}` } },
      settings: selection,
    };
    const out = await compilers.compile({ language: "Solidity", version, input: small });
    expect(out.contracts?.["S.sol"]?.S).toBeDefined();
  });
});
