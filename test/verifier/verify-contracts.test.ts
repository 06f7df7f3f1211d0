import { encodeFunctionData, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpc, waitForReceipt } from "../helpers/activity.js";
import { startVerifierEnv, type VerifierEnv } from "../helpers/verify.js";
import { build, deployData, link, standardJsonText, versionFor } from "../helpers/verify-contracts.js";

// Compiles on solc 0.4.24 and later: `constructor ... public` is accepted (with a warning) up to the newest.
const SIMPLE = `pragma solidity >=0.4.24;
contract Simple {
    uint256 public value;
    event Set(uint256 v);
    constructor(uint256 v) public { value = v; }
    function set(uint256 v) public { value = v; emit Set(v); }
}
`;

const FACTORY = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Child {
    uint256 public x;
    constructor(uint256 v) { x = v; }
}
contract Factory {
    address public a;
    address public b;
    function make() external {
        a = address(new Child(1));
        b = address(new Child{salt: bytes32(uint256(7))}(2));
    }
}
`;

const IMMUTABLES = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract WithImmutables {
    uint256 public immutable v;
    address public immutable owner;
    constructor(uint256 x) { v = x; owner = msg.sender; }
}
`;

const LIBRARY = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
library MathLib {
    function twice(uint256 v) external pure returns (uint256) { return v * 2; }
}
contract UsesLib {
    function go(uint256 v) external pure returns (uint256) { return MathLib.twice(v); }
}
`;

const ABSTRACT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
abstract contract Base {
    function f() public virtual returns (uint256);
}
contract Impl is Base {
    function f() public pure override returns (uint256) { return 42; }
}
`;

/** Settings exactly as the multi-part builder makes them (first attempt), so both routes compile the same. */
function multiPartSettings(version: string, runs: number | null, extra: Record<string, unknown> = {}) {
  const modern = !/^v0\.[45]\./.test(version);
  return {
    optimizer: runs === null ? { enabled: false, runs: 200 } : { enabled: true, runs },
    ...(modern ? { metadata: { bytecodeHash: "ipfs" } } : {}),
    ...extra,
  };
}

describe("verifying our own contracts (standard JSON and multi-part)", () => {
  let env: VerifierEnv;
  let chainId: string;
  const V1 = "/api/v1/solidity/sources:verify";

  beforeAll(async () => {
    env = await startVerifierEnv();
    chainId = String(env.chain.anvil.chainId);
  });
  afterAll(async () => {
    await env?.stop();
  });

  const standardJson = (
    address: Hex | Hex[],
    version: string,
    sources: Record<string, string>,
    settings: object,
  ) =>
    env.post(`${V1}-standard-json`, {
      contracts: (Array.isArray(address) ? address : [address]).map((a) => ({ chainId, address: a })),
      compiler: version,
      input: standardJsonText(sources, settings as Record<string, unknown>),
    });

  const multiPart = (address: Hex, version: string, sources: Record<string, string>, runs: number | null) =>
    env.post(`${V1}-multi-part`, {
      contracts: [{ chainId: Number(chainId), address }],
      compiler: version,
      ...(runs === null ? {} : { optimizationRuns: runs }),
      sourceFiles: sources,
      libraries: {},
    });

  const items = (r: { statusCode: number; body: any }) => {
    expect(r.statusCode).toBe(200);
    expect(r.body.contractVerificationResults).toBeDefined();
    return r.body.contractVerificationResults.items as any[];
  };

  // solc-js loads take seconds each on two cores: one contract per version, a few settings.
  const matrix: Array<{ v: string; runs: number | null; viaIR?: boolean }> = [
    { v: "0.4.26", runs: null },
    { v: "0.5.17", runs: 200 },
    { v: "0.6.12", runs: null },
    { v: "0.7.6", runs: 1000 },
    { v: "0.8.24", runs: null },
    { v: "0.8.37", runs: 200 },
    { v: "0.8.37", runs: 200, viaIR: true },
  ];
  for (const m of matrix) {
    it(`Simple with solc ${m.v}, optimizer ${m.runs ?? "off"}${m.viaIR ? ", via-IR" : ""}: full match both ways`, async () => {
      const version = versionFor(env.compilers, m.v);
      const sources = { "Simple.sol": SIMPLE };
      const settings = multiPartSettings(version, m.runs, m.viaIR ? { viaIR: true } : {});
      const built = await build(env.compilers, version, sources, settings);
      const a = await env.deploy(deployData(built.Simple!, [7n]));
      const b = await env.deploy(deployData(built.Simple!, [8n]));
      await env.sync();
      const [viaJson] = items(await standardJson(a, version, sources, settings));
      expect(viaJson).toMatchObject({
        status: "FULLY_VERIFIED",
        contractName: "Simple",
        creationMatch: "full",
        runtimeMatch: "full",
      });
      expect(viaJson.constructorArguments.decoded).toEqual([{ name: "v", type: "uint256", value: "7" }]);
      if (m.viaIR) return; // multi-part has no viaIR field
      const [viaParts] = items(await multiPart(b, version, sources, m.runs));
      expect(viaParts).toMatchObject({
        status: "FULLY_VERIFIED",
        creationMatch: "full",
        runtimeMatch: "full",
      });
    });
  }

  it("a factory and the children it creates with CREATE and CREATE2", async () => {
    const version = versionFor(env.compilers, "0.8.26");
    const sources = { "Factory.sol": FACTORY };
    const settings = multiPartSettings(version, 200);
    const built = await build(env.compilers, version, sources, settings);
    const factory = await env.deploy(deployData(built.Factory!));
    const make = await rpc<Hex>(env.chain.anvil.url, "eth_sendTransaction", [
      {
        from: env.chain.accounts[0]!.address,
        to: factory,
        data: encodeFunctionData({ abi: built.Factory!.abi, functionName: "make" }),
        gas: "0x989680",
      },
    ]);
    await waitForReceipt(env.chain.anvil.url, make);
    const read = async (fn: "a" | "b") =>
      `0x${(
        await rpc<Hex>(env.chain.anvil.url, "eth_call", [
          { to: factory, data: encodeFunctionData({ abi: built.Factory!.abi, functionName: fn }) },
          "latest",
        ])
      ).slice(-40)}` as Hex;
    const [childA, childB] = [await read("a"), await read("b")];
    await env.sync();
    const all = items(await standardJson([factory, childA, childB], version, sources, settings));
    expect(all.map((i) => [i.address, i.contractName, i.status, i.creationMatch, i.runtimeMatch])).toEqual([
      [factory.toLowerCase(), "Factory", "FULLY_VERIFIED", "full", "full"],
      [childA.toLowerCase(), "Child", "FULLY_VERIFIED", "full", "full"],
      [childB.toLowerCase(), "Child", "FULLY_VERIFIED", "full", "full"],
    ]);
    expect(all[2].constructorArguments.decoded[0].value).toBe("2");
    const [parts] = items(await multiPart(factory, version, sources, 200));
    expect(parts).toMatchObject({ status: "FULLY_VERIFIED", creationMatch: "full" });
  });

  it("a contract with immutables", async () => {
    const version = versionFor(env.compilers, "0.8.26");
    const sources = { "Imm.sol": IMMUTABLES };
    const settings = multiPartSettings(version, null);
    const built = await build(env.compilers, version, sources, settings);
    const a = await env.deploy(deployData(built.WithImmutables!, [100n]));
    const b = await env.deploy(deployData(built.WithImmutables!, [101n]));
    await env.sync();
    const [j] = items(await standardJson(a, version, sources, settings));
    expect(j).toMatchObject({ status: "FULLY_VERIFIED", creationMatch: "full", runtimeMatch: "full" });
    expect(j.transformations.runtime.map((t: { reason: string }) => t.reason)).toContain("immutable");
    const [p] = items(await multiPart(b, version, sources, null));
    expect(p).toMatchObject({ status: "FULLY_VERIFIED", runtimeMatch: "full" });
  });

  it("a contract using an external library, and the library itself", async () => {
    const version = versionFor(env.compilers, "0.8.26");
    const sources = { "Lib.sol": LIBRARY };
    const settings = multiPartSettings(version, 200);
    const built = await build(env.compilers, version, sources, settings);
    const lib = await env.deploy(deployData(built.MathLib!));
    const user = await env.deploy(link(built.UsesLib!.bytecode, lib));
    const user2 = await env.deploy(link(built.UsesLib!.bytecode, lib));
    await env.sync();
    const [u, l] = items(await standardJson([user, lib], version, sources, settings));
    expect(u).toMatchObject({ status: "FULLY_VERIFIED", contractName: "UsesLib", runtimeMatch: "full" });
    expect(u.transformations.runtimeValues.libraries).toEqual({ "Lib.sol:MathLib": lib.toLowerCase() });
    expect(l).toMatchObject({ status: "FULLY_VERIFIED", contractName: "MathLib", creationMatch: "full" });
    const [p] = items(await multiPart(user2, version, sources, 200));
    expect(p).toMatchObject({ status: "FULLY_VERIFIED", contractName: "UsesLib" });
  });

  it("a contract built without a metadata hash is a partial match", async () => {
    const version = versionFor(env.compilers, "0.8.26");
    const sources = { "Simple.sol": SIMPLE };
    const settings = { optimizer: { enabled: false, runs: 200 }, metadata: { bytecodeHash: "none" } };
    const built = await build(env.compilers, version, sources, settings);
    const a = await env.deploy(deployData(built.Simple!, [1n]));
    const b = await env.deploy(deployData(built.Simple!, [2n]));
    await env.sync();
    const [j] = items(await standardJson(a, version, sources, settings));
    expect(j).toMatchObject({
      status: "PARTIALLY_VERIFIED",
      creationMatch: "partial",
      runtimeMatch: "partial",
    });
    // Multi-part tries ipfs first, then none: the second attempt verifies.
    const [p] = items(await multiPart(b, version, sources, null));
    expect(p).toMatchObject({ status: "PARTIALLY_VERIFIED", runtimeMatch: "partial" });
  });

  it("an abstract contract: its implementation verifies, the abstract one alone cannot", async () => {
    const version = versionFor(env.compilers, "0.8.26");
    const sources = { "Abstract.sol": ABSTRACT };
    const settings = multiPartSettings(version, null);
    const built = await build(env.compilers, version, sources, settings);
    expect(built.Base!.bytecode).toBe("0x");
    const a = await env.deploy(deployData(built.Impl!));
    await env.sync();
    const [j] = items(await standardJson(a, version, sources, settings));
    expect(j).toMatchObject({ status: "FULLY_VERIFIED", contractName: "Impl" });
    const onlyBase = {
      "Abstract.sol": ABSTRACT.replace(/contract Impl[\s\S]*$/, ""),
    };
    const [f] = items(await multiPart(a, version, onlyBase, null));
    expect(f.status).toBe("FAILURE");
    expect(f.diagnosis.reason).toBe("no_code_in_output");
  });

  it("a wrong compiler version is named in the failure", async () => {
    const deployedWith = versionFor(env.compilers, "0.8.24");
    const sources = { "Simple.sol": SIMPLE };
    const settings = multiPartSettings(deployedWith, null);
    const built = await build(env.compilers, deployedWith, sources, settings);
    const a = await env.deploy(deployData(built.Simple!, [3n]));
    await env.sync();
    // 0.7.6 has no checked arithmetic: its code differs, and the on-chain CBOR names 0.8.24.
    const other = versionFor(env.compilers, "0.7.6");
    const [f] = items(await standardJson(a, other, sources, settings));
    expect(f.status).toBe("FAILURE");
    expect(f.diagnosis.reason).toBe("wrong_compiler_version");
    expect(f.message).toContain("0.8.24");
  });

  it("a compile error is a compilationFailure with the compiler's message", async () => {
    const version = versionFor(env.compilers, "0.8.26");
    const a = await env.deploy(
      deployData((await build(env.compilers, version, { "Imm.sol": IMMUTABLES }, {})).WithImmutables!, [1n]),
    );
    await env.sync();
    const r = await standardJson(a, version, { "Bad.sol": "contract Bad { function f( }" }, {});
    expect(r.statusCode).toBe(200);
    expect(Object.keys(r.body)).toEqual(["compilationFailure"]);
    expect(r.body.compilationFailure.message).toMatch(/^Compilation error: \[\n {4}".*ParserError/s);
  });
});
