import { encodeAbiParameters, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromBytea, toBytea } from "../../src/db/bytes.js";
import { rpc } from "../helpers/activity.js";
import { type BytecodeDbEnv, startBytecodeDbEnv } from "../helpers/bytecode-db.js";
import { describeWithSharedFixtures } from "../helpers/shared-fixtures.js";
import { build, deployData, standardJsonText, versionFor } from "../helpers/verify-contracts.js";

// The requests below are written from what Blockscout's backend builds (blockscout/blockscout,
// apps/explorer/lib/explorer/smart_contract/: helper.ex fetch_data_for_verification and
// prepare_bytecode_for_microservice, solidity/verifier.ex, vyper/verifier.ex, eth_bytecode_db_interface.ex),
// and the assertions are on the members its publisher reads (solidity/publisher.ex process_rust_verifier_response).

const source = (tag: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Store${tag} {
    uint256 public value;
    address public owner;
    constructor(uint256 v) { value = v; owner = msg.sender; }
    function set(uint256 v) external { require(msg.sender == owner, "owner"); value = v; }
}
`;
const SETTINGS = { optimizer: { enabled: true, runs: 200 } };
const args = (v: bigint) => encodeAbiParameters([{ type: "uint256" }], [v]);

type Creation = {
  transactionHash: Hex;
  blockNumber: number;
  transactionIndex: number;
  deployer: Hex;
  init: Hex;
  runtime: Hex;
};

describe("eth-bytecode-db v2 API (Blockscout backend with MICROSERVICE_SC_VERIFIER_TYPE=eth_bytecode_db)", () => {
  let env: BytecodeDbEnv;
  let version: string;
  let chainId: string;
  const deployed: Record<string, Hex> = {};

  /** The creation facts Blockscout keeps in its own database; here they come from our index. */
  const creationOf = async (address: Hex): Promise<Creation> => {
    const [row] = await env.db.db.query<{
      transaction_hash: Uint8Array;
      block_number: string | number;
      transaction_index: number;
      creator: Uint8Array;
      init_code: Uint8Array;
      runtime_code: Uint8Array;
    }>(
      "select transaction_hash, block_number, transaction_index, creator, init_code, runtime_code from contract_creations where address = $1",
      [toBytea(address)],
    );
    return {
      transactionHash: fromBytea(row!.transaction_hash),
      blockNumber: Number(row!.block_number),
      transactionIndex: row!.transaction_index,
      deployer: fromBytea(row!.creator),
      init: fromBytea(row!.init_code),
      runtime: fromBytea(row!.runtime_code),
    };
  };
  /** `fetch_data_for_verification`: metadata with int64s as strings, merged with address, runtime code and CHAIN_ID. */
  const metadataOf = (address: Hex, c: Creation) => ({
    blockNumber: String(c.blockNumber),
    transactionHash: c.transactionHash,
    transactionIndex: String(c.transactionIndex),
    deployer: c.deployer,
    creationCode: c.init,
    contractAddress: address,
    runtimeCode: c.runtime,
    chainId,
  });
  // A flattened file is named after the contract, as Blockscout names it (`<name>.sol`).
  const pathOf = (tag: string) => (tag === "Flat" ? "StoreFlat.sol" : `contracts/Store${tag}.sol`);
  const deploy = async (tag: string, value: bigint) => {
    const built = await build(env.compilers, version, { [pathOf(tag)]: source(tag) }, SETTINGS);
    const address = await env.deploy(deployData(built[`Store${tag}`]!, [value]));
    deployed[tag] = address;
    return address;
  };
  const post = (url: string, body: unknown) => env.send("POST", url, body);

  beforeAll(async () => {
    env = await startBytecodeDbEnv();
    version = versionFor(env.compilers, "0.8.26");
    chainId = String(env.chain.anvil.chainId);
    // All deployed and indexed up front (distinct sources: none is a copy of another).
    for (const [i, tag] of [
      "Json",
      "Multi",
      "Flat",
      "V1",
      "Etherscan",
      "Sourcify",
      "Passthrough",
      "Victim",
    ].entries())
      await deploy(tag, BigInt(100 + i));
    await env.sync();
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("solidity sources%3Averify-standard-json: SUCCESS with the source the publisher reads, no RPC, in our store", async () => {
    const address = deployed.Json!;
    const c = await creationOf(address);
    env.rpcCalls.length = 0;
    // verify_standard_json_input: bytecode/bytecodeType from prepare_bytecode_for_microservice, input as a string.
    const r = await post("/api/v2/verifier/solidity/sources%3Averify-standard-json", {
      compilerVersion: version,
      bytecodeType: "CREATION_INPUT",
      bytecode: c.init,
      input: standardJsonText({ "contracts/StoreJson.sol": source("Json") }, SETTINGS),
      metadata: metadataOf(address, c),
    });
    expect(r.statusCode).toBe(200);
    expect(r.body).toMatchObject({ status: "SUCCESS", message: "OK" });
    const s = r.body.source;
    expect(Object.keys(s.sourceFiles)).toContain(s.fileName);
    expect(s).toMatchObject({
      fileName: "contracts/StoreJson.sol",
      contractName: "StoreJson",
      compilerVersion: version,
      sourceType: "SOLIDITY",
      matchType: "FULL",
      constructorArguments: args(100n).slice(2),
      isBlueprint: false,
    });
    expect(JSON.parse(s.compilerSettings).optimizer).toEqual({ enabled: true, runs: 200 });
    expect(JSON.parse(s.abi).map((e: { name?: string }) => e.name)).toContain("set");
    expect(JSON.parse(s.compilationArtifacts).abi).toEqual(JSON.parse(s.abi));
    expect(JSON.parse(s.creationInputArtifacts)).toHaveProperty("cborAuxdata");
    expect(JSON.parse(s.deployedBytecodeArtifacts)).toHaveProperty("immutableReferences");
    // The metadata agreed with our index: the node was not asked.
    expect(env.rpcCalls).toEqual([]);
    // Verified through this API: the explorer shows it as verified.
    const page = await env.send("GET", `/api/v2/smart-contracts/${address}`);
    expect(page.body).toMatchObject({ is_verified: true, is_fully_verified: true, name: "StoreJson" });
  });

  it("solidity :verify-multi-part with the members the backend adds (libraries, evmVersion default)", async () => {
    const address = deployed.Multi!;
    const c = await creationOf(address);
    const r = await post("/api/v2/verifier/solidity/sources:verify-multi-part", {
      bytecodeType: "CREATION_INPUT",
      bytecode: c.init,
      sourceFiles: { "contracts/StoreMulti.sol": source("Multi") },
      libraries: {},
      optimizationRuns: 200,
      evmVersion: "default",
      compilerVersion: version,
      metadata: metadataOf(address, c),
    });
    expect(r.body).toMatchObject({
      status: "SUCCESS",
      source: { contractName: "StoreMulti", matchType: "FULL" },
    });
  });

  it("flattened code (evaluate_authenticity: one `<name>.sol`, libraries null) and a FAILURE answered with 200", async () => {
    const address = deployed.Flat!;
    const c = await creationOf(address);
    const body = {
      bytecodeType: "CREATION_INPUT",
      bytecode: c.init,
      sourceFiles: { "StoreFlat.sol": source("Flat") },
      libraries: null,
      optimizationRuns: 200,
      evmVersion: "default",
      compilerVersion: version,
      metadata: metadataOf(address, c),
    };
    const wrong = await post("/api/v2/verifier/solidity/sources%3Averify-multi-part", {
      ...body,
      // Other runtime code (a change to the name or constructor only would still match the runtime partially).
      sourceFiles: { "StoreFlat.sol": source("Flat").replace('"owner"', '"not the owner"') },
    });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.body.status, JSON.stringify(wrong.body)).toBe("FAILURE");
    expect(typeof wrong.body.message).toBe("string");
    expect(wrong.body.source).toBeUndefined();
    const ok = await post("/api/v2/verifier/solidity/sources%3Averify-multi-part", body);
    expect(ok.body).toMatchObject({
      status: "SUCCESS",
      source: { fileName: "StoreFlat.sol", contractName: "StoreFlat" },
    });
  });

  it("metadata our index does not confirm is not trusted: the chain decides", async () => {
    // Claim that Victim holds another contract's code (other runtime code, not only another name), and send that
    // contract's sources.
    const otherSource = source("Other").replace('"owner"', '"not the owner"');
    const other = (await build(env.compilers, version, { "contracts/StoreOther.sol": otherSource }, SETTINGS))
      .StoreOther!;
    const init = deployData(other, [1n]);
    env.rpcCalls.length = 0;
    const r = await post("/api/v2/verifier/solidity/sources%3Averify-standard-json", {
      compilerVersion: version,
      bytecodeType: "CREATION_INPUT",
      bytecode: init,
      input: standardJsonText({ "contracts/StoreOther.sol": otherSource }, SETTINGS),
      metadata: {
        contractAddress: deployed.Victim,
        chainId,
        creationCode: init,
        runtimeCode: other.deployedBytecode,
        transactionHash: `0x${"ab".repeat(32)}`,
        blockNumber: "1",
        transactionIndex: "0",
      },
    });
    expect(r.statusCode).toBe(200);
    expect(r.body.status).toBe("FAILURE");
    expect(env.rpcCalls).toContain("eth_getCode");
    const page = await env.send("GET", `/api/v2/smart-contracts/${deployed.Victim}`);
    expect(page.body.is_verified ?? false).toBe(false);
  });

  it("bad input is a 400 {code: 3, message}, an unknown route suffix a 404", async () => {
    const c = await creationOf(deployed.Json!);
    const good = {
      compilerVersion: version,
      bytecodeType: "CREATION_INPUT",
      bytecode: c.init,
      input: "{}",
      metadata: metadataOf(deployed.Json!, c),
    };
    const url = "/api/v2/verifier/solidity/sources%3Averify-standard-json";
    for (const bad of [
      { ...good, bytecodeType: "BYTECODE_TYPE_UNSPECIFIED" },
      { ...good, bytecode: "0xzz" },
      { ...good, compilerVersion: "v0.0.1+commit.00000000" },
      { ...good, metadata: { ...good.metadata, contractAddress: null } },
      { ...good, metadata: { ...good.metadata, chainId: "999999" } },
    ]) {
      const r = await post(url, bad);
      expect(r.statusCode, JSON.stringify(bad).slice(0, 80)).toBe(400);
      expect(r.body).toEqual({ code: 3, message: expect.any(String) });
    }
    const search = await post("/api/v2/bytecodes/sources:search", { bytecode: "0x60", bytecodeType: "X" });
    expect(search.statusCode).toBe(400);
    const malformed = await env.all.inject({
      method: "POST",
      url,
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 3 });
    for (const u of [
      "/api/v2/verifier/solidity/sources:verify-multi-partXYZ",
      "/api/v2/verifier/solidity/sources%3Averify-multi-partXYZ",
      "/api/v2/verifier/solidity/sourcesverify-multi-part",
      "/api/v2/bytecodes/sources:search-everything",
    ]) {
      expect((await post(u, good)).statusCode, u).toBe(404);
    }
  });

  it("versions lists (CompilerVersion.fetch_versions reads compilerVersions)", async () => {
    const sol = await env.send("GET", "/api/v2/verifier/solidity/versions");
    expect(sol.body.compilerVersions).toContain(version);
    const vy = await env.send("GET", "/api/v2/verifier/vyper/versions");
    expect(Array.isArray(vy.body.compilerVersions)).toBe(true);
  });

  it("search and search-all find contracts verified through /api/v1, Etherscan /api and /sourcify", async () => {
    const stdJson = (tag: string) =>
      standardJsonText({ [`contracts/Store${tag}.sol`]: source(tag) }, SETTINGS);
    const v1 = await post("/api/v1/solidity/sources:verify-standard-json", {
      contracts: [{ chainId, address: deployed.V1 }],
      compiler: version,
      input: stdJson("V1"),
    });
    expect(v1.body.contractVerificationResults.items[0].status).toBe("FULLY_VERIFIED");
    const es = await env.all.inject({
      method: "POST",
      url: "/api",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        module: "contract",
        action: "verifysourcecode",
        contractaddress: deployed.Etherscan!,
        sourceCode: stdJson("Etherscan"),
        codeformat: "solidity-standard-json-input",
        contractname: "contracts/StoreEtherscan.sol:StoreEtherscan",
        compilerversion: version,
      }).toString(),
    });
    expect(es.json().status).toBe("1");
    const sf = await post(`/sourcify/v2/verify/${chainId}/${deployed.Sourcify}`, {
      stdJsonInput: JSON.parse(stdJson("Sourcify")),
      compilerVersion: version,
      contractIdentifier: "contracts/StoreSourcify.sol:StoreSourcify",
    });
    expect(sf.statusCode).toBe(202);
    await env.jobs.idle();

    for (const tag of ["V1", "Etherscan", "Sourcify"]) {
      const address = deployed[tag]!;
      const c = await creationOf(address);
      // search_contract without CHAIN_ID: sources:search with the bytecode fields and metadata.
      const byCreation = await post("/api/v2/bytecodes/sources:search", {
        bytecodeType: "CREATION_INPUT",
        bytecode: c.init,
        metadata: metadataOf(address, c),
      });
      expect(byCreation.statusCode).toBe(200);
      expect(byCreation.body.sources).toHaveLength(1);
      expect(byCreation.body.sources[0]).toMatchObject({
        contractName: `Store${tag}`,
        fileName: `contracts/Store${tag}.sol`,
        matchType: "FULL",
        sourceType: "SOLIDITY",
        constructorArguments: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(byCreation.body.sources[0]).not.toHaveProperty("chainId");
      // search_contract with CHAIN_ID set: search-all with chain and address merged in.
      const all = await post("/api/v2/bytecodes/sources:search-all", {
        bytecodeType: "DEPLOYED_BYTECODE",
        bytecode: c.runtime,
        chain: chainId,
        address,
        metadata: metadataOf(address, c),
      });
      expect(all.body.ethBytecodeDbSources.map((s: { contractName: string }) => s.contractName)).toEqual([
        `Store${tag}`,
      ]);
      expect(all.body).toMatchObject({ sourcifySources: [], allianceSources: [] });
      const src = all.body.ethBytecodeDbSources[0];
      expect(src.sourceFiles[src.fileName]).toBe(source(tag));
      expect(typeof JSON.parse(src.compilerSettings)).toBe("object");
    }
    // The on-demand lookup (search_contract_in_eth_bytecode_internal_db): onlyLocal, and by address.
    const c = await creationOf(deployed.V1!);
    const local = await post("/api/v2/bytecodes/sources:search-all", {
      bytecodeType: "CREATION_INPUT",
      bytecode: c.init,
      chain: chainId,
      address: deployed.V1,
      onlyLocal: true,
      metadata: metadataOf(deployed.V1!, c),
    });
    expect(local.body.ethBytecodeDbSources[0].contractName).toBe("StoreV1");
    const byAddress = await post("/api/v2/bytecodes/sources:search-alliance", {
      chain: chainId,
      address: deployed.V1,
    });
    expect(byAddress.body.sources.map((s: { contractName: string }) => s.contractName)).toEqual(["StoreV1"]);
    const sourcify = await post("/api/v2/bytecodes/sources:search-sourcify", {
      chain: chainId,
      address: deployed.Passthrough,
    });
    expect(sourcify.body).toEqual({ sources: [] });
    const none = await post("/api/v2/bytecodes/sources:search-all", {
      bytecodeType: "DEPLOYED_BYTECODE",
      bytecode: "0x6080604052",
      chain: chainId,
      address: deployed.Passthrough,
    });
    expect(none.body).toEqual({ ethBytecodeDbSources: [], sourcifySources: [], allianceSources: [] });
  });

  it("verifier/sourcify/sources:verify (Sourcify through the microservice): metadata.json and sources", async () => {
    const file = "contracts/StorePassthrough.sol";
    const out = await env.compilers.compile({
      language: "Solidity",
      version,
      input: {
        language: "Solidity",
        sources: { [file]: { content: source("Passthrough") } },
        settings: { ...SETTINGS, outputSelection: { "*": { "*": ["metadata"] } } },
      },
    });
    const metadata = (out.contracts as Record<string, Record<string, { metadata: string }>>)[file]!
      .StorePassthrough!.metadata;
    // verify_via_rust_microservice: chain, address, files (JSON files re-encoded), chosenContract when given.
    const r = await post("/api/v2/verifier/sourcify/sources:verify", {
      chain: chainId,
      address: deployed.Passthrough,
      files: {
        "metadata.json": JSON.stringify(JSON.parse(metadata)),
        "StorePassthrough.sol": source("Passthrough"),
      },
    });
    expect(r.body).toMatchObject({
      status: "SUCCESS",
      source: { contractName: "StorePassthrough", matchType: "FULL" },
    });
    const missing = await post("/api/v2/verifier/sourcify/sources:verify", {
      chain: chainId,
      address: deployed.Passthrough,
      files: { "metadata.json": metadata },
    });
    expect(missing.body).toMatchObject({
      status: "FAILURE",
      message: expect.stringMatching(/Missing source files/),
    });
  });

  it("GET /health keeps Lookout's object and answers the gRPC health check with ?service=", async () => {
    const own = await env.send("GET", "/health");
    expect(own.body).toMatchObject({ status: "ok", database: { ok: true } });
    const grpc = await env.send("GET", "/health?service=blockscout.ethBytecodeDb.v2.Database");
    expect(grpc.body).toEqual({ status: "SERVING" });
    // The routes are in the OpenAPI document, under their colon paths.
    const paths = Object.keys((await env.send("GET", "/api/docs/openapi.json")).body.paths);
    expect(paths).toContain("/api/v2/verifier/solidity/sources:verify-multi-part");
    expect(paths).toContain("/api/v2/bytecodes/sources:search-all");
  });
});

describeWithSharedFixtures("eth-bytecode-db v2 API: Vyper (recorded compiler outputs)", () => {
  let env: BytecodeDbEnv;
  let chainId: string;
  let cases: Array<import("../helpers/recorded-vyper.js").VyperCase>;
  const at: Record<string, Hex> = {};

  beforeAll(async () => {
    const rv = await import("../helpers/recorded-vyper.js");
    cases = rv.vyperCases().filter((c) => c.name.startsWith("vyper-compiler-outputs/"));
    const stand = new rv.RecordedVyperCompiler(cases.map((c) => c.recording));
    env = await startBytecodeDbEnv({ compilers: (registry) => rv.withRecordedVyper(registry, stand) });
    chainId = String(env.chain.anvil.chainId);
    // The Arbitrage constructor (standard_json_with_interfaces) calls approve() on these tokens: stubs returning true.
    for (const t of [
      "0xf71040d20cc3ffbb28c1abcef46134c7936624e0",
      "0x5e8422345238f34275888049021821e8e08caa1f",
      "0xac3e018457b222d93114458476f3e3416abbe38f",
    ])
      await rpc(env.chain.anvil.url, "anvil_setCode", [t, "0x600160005260206000f3"]);
    for (const name of ["arguments.json", "standard_json_with_interfaces.json"]) {
      const c = cases.find((x) => x.name === `vyper-compiler-outputs/${name}`)!;
      at[name] = await env.deploy(c.creationInput as Hex);
    }
    await env.sync();
  });
  afterAll(async () => {
    await env?.stop();
  });

  const metadata = (address: Hex, creation: string, runtime: string) => ({
    contractAddress: address,
    runtimeCode: runtime,
    chainId,
    creationCode: creation,
  });

  it("vyper sources%3Averify-multi-part (evaluate_authenticity: `<name>.vy`, interfaces {}, evmVersion null)", async () => {
    const c = cases.find((x) => x.name === "vyper-compiler-outputs/arguments.json")!;
    const address = at["arguments.json"]!;
    const r = await env.send("POST", "/api/v2/verifier/vyper/sources%3Averify-multi-part", {
      bytecodeType: "CREATION_INPUT",
      bytecode: c.creationInput,
      evmVersion: null,
      sourceFiles: c.multiPart!.sourceFiles,
      compilerVersion: c.version,
      interfaces: {},
      metadata: metadata(address, c.creationInput!, c.runtimeCode),
    });
    expect(r.body, JSON.stringify(r.body).slice(0, 300)).toMatchObject({
      status: "SUCCESS",
      source: {
        sourceType: "VYPER",
        contractName: c.contractName,
        fileName: c.fileName,
        compilerVersion: c.version,
      },
    });
    expect(Object.keys(r.body.source.sourceFiles)).toContain(r.body.source.fileName);
    expect(Array.isArray(JSON.parse(r.body.source.abi))).toBe(true);
    expect(r.body.source.constructorArguments).toBe(c.constructorArguments?.slice(2) ?? null);
    const page = await env.send("GET", `/api/v2/smart-contracts/${address}`);
    expect(page.body.is_verified).toBe(true);
  });

  it("vyper sources%3Averify-standard-json (input as the uploaded file's text)", async () => {
    const c = cases.find((x) => x.name === "vyper-compiler-outputs/standard_json_with_interfaces.json")!;
    const address = at["standard_json_with_interfaces.json"]!;
    const r = await env.send("POST", "/api/v2/verifier/vyper/sources%3Averify-standard-json", {
      bytecodeType: "CREATION_INPUT",
      bytecode: c.creationInput,
      compilerVersion: c.version,
      input: JSON.stringify(c.standardJson),
      metadata: metadata(address, c.creationInput!, c.runtimeCode),
    });
    expect(r.body, JSON.stringify(r.body).slice(0, 300)).toMatchObject({
      status: "SUCCESS",
      source: { sourceType: "VYPER", contractName: c.contractName, fileName: c.fileName },
    });
    const found = await env.send("POST", "/api/v2/bytecodes/sources:search", {
      bytecodeType: "DEPLOYED_BYTECODE",
      bytecode: c.runtimeCode,
    });
    expect(found.body.sources.map((s: { contractName: string }) => s.contractName)).toContain(c.contractName);
  });
});
