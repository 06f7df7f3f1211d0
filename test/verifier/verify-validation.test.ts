import { encodeFunctionData, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpc, waitForReceipt } from "../helpers/activity.js";
import { startVerifierEnv, type VerifierEnv } from "../helpers/verify.js";
import { build, deployData, standardJsonText, versionFor } from "../helpers/verify-contracts.js";

const KILLABLE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Killable {
    uint256 public n;
    constructor(uint256 v) { n = v; }
    function kill() external { selfdestruct(payable(msg.sender)); }
    function tag() external pure returns (uint256) { return 1; }
}
`;

// Same runtime shape as Killable (same length, same layout) with another constant: must never verify Killable.
const LOOKALIKE = KILLABLE.replace("return 1;", "return 2;");

// A bytes constant shaped like solc's CBOR metadata sits in the middle of the code.
const cborConstant = (hash: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Planted {
    function blob() external pure returns (bytes memory) {
        return hex"a2646970667358221220${hash}64736f6c63430008120033";
    }
}
`;

describe("validation, several chains, attacks", () => {
  let env: VerifierEnv;
  let version: string;
  let chainId: string;
  const settings = { optimizer: { enabled: false, runs: 200 }, metadata: { bytecodeHash: "ipfs" } };
  const sources = { "Killable.sol": KILLABLE };
  let built: Awaited<ReturnType<typeof build>>;

  beforeAll(async () => {
    // Pre-Cancun, so selfdestruct really removes the code.
    env = await startVerifierEnv({ hardfork: "shanghai", secondChain: true });
    chainId = String(env.chain.anvil.chainId);
    version = versionFor(env.compilers, "0.8.18");
    built = await build(env.compilers, version, sources, settings);
  });
  afterAll(async () => {
    await env?.stop();
  });

  const verifyJson = (contracts: unknown[], src: Record<string, string> = sources, compiler = version) =>
    env.post("/api/v1/solidity/sources:verify-standard-json", {
      contracts,
      compiler,
      input: standardJsonText(src, settings),
    });

  it("an EOA, a never-used address and a self-destructed contract are INVALID; nothing is compiled", async () => {
    const live = await env.deploy(deployData(built.Killable!, [1n]));
    const doomed = await env.deploy(deployData(built.Killable!, [2n]));
    const kill = await rpc<Hex>(env.chain.anvil.url, "eth_sendTransaction", [
      {
        from: env.chain.accounts[0]!.address,
        to: doomed,
        data: encodeFunctionData({ abi: built.Killable!.abi, functionName: "kill" }),
      },
    ]);
    await waitForReceipt(env.chain.anvil.url, kill);
    expect(await rpc(env.chain.anvil.url, "eth_getCode", [doomed, "latest"])).toBe("0x");
    await env.sync();
    const eoa = env.chain.accounts[1]!.address;
    const unused = "0x000000000000000000000000000000000000dEaD";
    const compilations = env.compilers.stats.compilations;
    const r = await verifyJson([
      { chainId, address: live },
      { chainId, address: eoa },
      { chainId: Number(chainId), address: unused },
      { chainId, address: doomed },
    ]);
    expect(r.statusCode).toBe(200);
    expect(Object.keys(r.body)).toEqual(["contractValidationResults"]);
    expect(r.body.contractValidationResults.items.map((i: any) => [i.status, i.message])).toEqual([
      ["VALID", "Ok"],
      ["INVALID", "Address is not a smart-contract"],
      ["INVALID", "Address is not a smart-contract"],
      ["INVALID", "Smart-contract was self-destructed"],
    ]);
    expect(env.compilers.stats.compilations).toBe(compilations);
  });

  it("an address without code gets the validation result even when the sources do not compile", async () => {
    // The compile starts beside eth_getCode (verify.ts); its error must not win over the missing code.
    const broken = { "Killable.sol": `${KILLABLE}\ncontract Broken { function f() { undefinedName(); } }\n` };
    const unused = "0x000000000000000000000000000000000000bEEF";
    const r = await verifyJson([{ chainId, address: unused }], broken);
    expect(r.statusCode).toBe(200);
    expect(r.body).toEqual({
      contractValidationResults: {
        items: [
          {
            status: "INVALID",
            message: "Address is not a smart-contract",
            chainId,
            address: unused.toLowerCase(),
          },
        ],
      },
    });
  });

  it("several contracts on two chains in one request: results in request order", async () => {
    const a = await env.deploy(deployData(built.Killable!, [10n]));
    const onOther = await env.deploy(deployData(built.Killable!, [11n]), env.other!);
    const b = await env.deploy(deployData(built.Killable!, [12n]));
    await env.sync();
    const r = await verifyJson([
      { chainId, address: b },
      { chainId: "31338", address: onOther },
      { chainId: Number(chainId), address: a },
    ]);
    const items = r.body.contractVerificationResults.items;
    expect(items.map((i: any) => [i.chainId, i.address, i.status])).toEqual([
      [chainId, b.toLowerCase(), "FULLY_VERIFIED"],
      ["31338", onOther.toLowerCase(), "FULLY_VERIFIED"],
      [chainId, a.toLowerCase(), "FULLY_VERIFIED"],
    ]);
    // The other chain is not indexed: its creation is found on its node, as if indexed.
    expect(items[1]).toMatchObject({ creationMatch: "full", runtimeMatch: "full" });
    expect(items[1].constructorArguments.encoded).toBe(`0x${(11).toString(16).padStart(64, "0")}`);
    expect(items[0]).toMatchObject({ creationMatch: "full", runtimeMatch: "full" });
  });

  it("bad requests are 400 {code: 3}", async () => {
    const url = "/api/v1/solidity/sources:verify-standard-json";
    const malformed = await env.app.inject({
      method: "POST",
      url,
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe(3);
    const cases: Array<[unknown, RegExp]> = [
      [{ contracts: [], compiler: version }, /missing field `input`/],
      [
        { contracts: [{ chainId: "999", address: `0x${"1".repeat(40)}` }], compiler: version, input: "{}" },
        /chain_id=999; is not supported/,
      ],
      [{ contracts: [{ chainId, address: "0x1234" }], compiler: version, input: "{}" }, /invalid address/],
      [
        {
          contracts: [{ chainId, address: `0x${"1".repeat(40)}` }],
          compiler: "0.8.99+commit.deadbeef",
          input: standardJsonText(sources, {}),
        },
        /compiler version/,
      ],
    ];
    for (const [body, message] of cases) {
      const r = await env.post(url, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe(3);
      expect(r.body.message).toMatch(message);
    }
    const evm = await env.post("/api/v1/solidity/sources:verify-multi-part", {
      contracts: [{ chainId, address: `0x${"1".repeat(40)}` }],
      compiler: version,
      evmVersion: "osaka",
      sourceFiles: sources,
      libraries: {},
    });
    expect(evm.statusCode).toBe(400);
    expect(evm.body.message).toMatch(/evm_version/);
    const runs = await env.post("/api/v1/solidity/sources:verify-multi-part", {
      contracts: [],
      compiler: version,
      optimizationRuns: -1,
      sourceFiles: sources,
      libraries: {},
    });
    expect(runs.statusCode).toBe(400);
  });

  it("attack: a spoofed constructor-argument suffix never makes a creation match", async () => {
    // Valid arguments followed by extra bytes: the EVM ignores them, the verifier must not.
    const data = `${deployData(built.Killable!, [5n])}${"00".repeat(31)}01` as Hex;
    const address = await env.deploy(data);
    await env.sync();
    const [item] = (await verifyJson([{ chainId, address }])).body.contractVerificationResults.items;
    // The runtime code is genuinely Killable's, but the creation input is known and does not match: a failure.
    expect(item).toMatchObject({ status: "FAILURE", diagnosis: { reason: "constructor_arguments_invalid" } });
    expect(item.creationMatch ?? null).toBeNull();
  });

  it("attack: CBOR-shaped bytes in the middle of the code are not waved through as metadata", async () => {
    const real = cborConstant("11".repeat(32));
    const fake = cborConstant("22".repeat(32));
    const deployed = await build(env.compilers, version, { "Planted.sol": fake }, settings);
    const address = await env.deploy(deployData(deployed.Planted!));
    await env.sync();
    const [item] = (await verifyJson([{ chainId, address }], { "Planted.sol": real })).body
      .contractVerificationResults.items;
    expect(item.status).toBe("FAILURE");
    expect(item.creationMatch ?? null).toBeNull();
    expect(item.runtimeMatch ?? null).toBeNull();
  });

  it("attack: a different source with the same runtime shape does not verify", async () => {
    const address = await env.deploy(deployData(built.Killable!, [77n]));
    await env.sync();
    const [item] = (await verifyJson([{ chainId, address }], { "Killable.sol": LOOKALIKE })).body
      .contractVerificationResults.items;
    expect(item.status).toBe("FAILURE");
    expect(item.message).toContain("No contract could be verified with provided data");
    expect(item.diagnosis.closest).toMatchObject({ contractName: "Killable" });
    expect(typeof item.diagnosis.closest.firstDifferingByte).toBe("number");
  });
});
