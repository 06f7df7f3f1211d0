import type { Hex } from "viem";
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVerifierEnv, type VerifierEnv } from "../helpers/verify.js";
import { build, deployData, standardJsonText, versionFor } from "../helpers/verify-contracts.js";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Greeter {
    string public greeting;
    uint256 public immutable born;
    constructor(string memory g, uint256 b) { greeting = g; born = b; }
}
`;

describe("explorer view of verified contracts", () => {
  let env: VerifierEnv;
  let chainId: string;
  let version: string;
  let first: Hex;
  const settings = { optimizer: { enabled: true, runs: 200 } };
  const sources = { "src/Greeter.sol": SOURCE };

  beforeAll(async () => {
    env = await startVerifierEnv();
    chainId = String(env.chain.anvil.chainId);
    version = versionFor(env.compilers, "0.8.26");
    const built = await build(env.compilers, version, sources, settings);
    first = await env.deploy(deployData(built.Greeter!, ["hello", 42n]));
    await env.sync();
  });
  afterAll(async () => {
    await env?.stop();
  });

  const get = async (url: string) => {
    const r = await env.app.inject({ url });
    return { status: r.statusCode, body: r.json() as any };
  };

  it("shows an unverified contract with its code only", async () => {
    const a = await get(`/api/v2/addresses/${first}`);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ hash: getAddress(first), is_contract: true, is_verified: false });
    const sc = await get(`/api/v2/smart-contracts/${first}`);
    expect(sc.status).toBe(200);
    expect(sc.body).toMatchObject({ is_verified: false, abi: null });
    expect(sc.body.deployed_bytecode).toMatch(/^0x[0-9a-f]+$/);
  });

  it("flips the address object to is_verified with the contract name, and serves the contract tab", async () => {
    const r = await env.post("/api/v1/solidity/sources:verify-standard-json", {
      contracts: [{ chainId, address: first }],
      compiler: version,
      input: standardJsonText(sources, settings),
    });
    expect(r.body.contractVerificationResults.items[0].status).toBe("FULLY_VERIFIED");

    const a = await get(`/api/v2/addresses/${first.toLowerCase()}`);
    expect(a.body).toMatchObject({ is_verified: true, name: "Greeter" });

    const sc = await get(`/api/v2/smart-contracts/${first}`);
    expect(sc.status).toBe(200);
    expect(sc.body).toMatchObject({
      is_verified: true,
      is_fully_verified: true,
      is_partially_verified: false,
      name: "Greeter",
      file_path: "src/Greeter.sol",
      source_code: SOURCE,
      language: "solidity",
      optimization_enabled: true,
      optimization_runs: 200,
      match_type: "full",
      additional_sources: [],
    });
    expect(sc.body.compiler_version).toBe(version);
    expect(sc.body.abi.find((i: { type: string }) => i.type === "constructor")).toBeTruthy();
    expect(sc.body.decoded_constructor_args).toEqual([
      ["hello", { internalType: "string", name: "g", type: "string" }],
      ["42", { internalType: "uint256", name: "b", type: "uint256" }],
    ]);
    expect(sc.body.constructor_args).toMatch(/^0x[0-9a-f]+$/);
  });

  it("answers 404 for an address that is no contract, and 422 for a malformed one", async () => {
    expect((await get("/api/v2/smart-contracts/0x000000000000000000000000000000000000bEEF")).status).toBe(
      404,
    );
    const bad = await get("/api/v2/smart-contracts/0x123");
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe("/address_hash_param");
  });
});
