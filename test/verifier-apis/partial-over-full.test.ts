import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getVerifiedContract } from "../../src/verifier/store/index.js";
import { type ApisEnv, startApisEnv } from "../helpers/verification-apis.js";
import { build, deployData, standardJsonText, versionFor } from "../helpers/verify-contracts.js";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Ledger {
    mapping(address => uint256) public entries;
    event Entry(address indexed who, uint256 amount);
    function record(uint256 amount) external { entries[msg.sender] += amount; emit Entry(msg.sender, amount); }
}
`;
// A comment changes the metadata hash only: these sources match the deployed code partially.
const EDITED = { "Ledger.sol": `${SOURCE}// edited after deployment\n` };
const SOURCES = { "Ledger.sol": SOURCE };
const SETTINGS = { optimizer: { enabled: true, runs: 200 }, metadata: { bytecodeHash: "ipfs" } };

/**
 * Partially matching sources sent for a contract that is already fully verified (here: verified automatically as
 * an identical copy of a verified contract, which leaves every front door open) are described as what they are,
 * PARTIALLY_VERIFIED, in every dialect that reports a status; the full match stays in the store.
 */
describe("partial sources for a fully verified contract, in every dialect", () => {
  let env: ApisEnv;
  let version: string;
  let chainId: string;
  let twin: Hex;
  let original: Hex;

  const keptFull = async () => {
    const rec = await getVerifiedContract(env.db.db, chainId, twin);
    expect(rec).toMatchObject({ matchType: "full", automatic: true, sources: SOURCES });
  };

  /** forge's `verifysourcecode` with standard JSON through /api, then its status once the job has run. */
  const verifySourceCode = async (address: Hex, sourceCode: string, contractname: string) => {
    const submit = await env.apis.inject({
      method: "POST",
      url: "/api",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        module: "contract",
        action: "verifysourcecode",
        contractaddress: address,
        sourceCode,
        codeformat: "solidity-standard-json-input",
        contractname,
        compilerversion: version,
      }).toString(),
    });
    await env.jobs.idle();
    const status = await env.apis.inject({
      url: `/api?module=contract&action=checkverifystatus&guid=${submit.json().result}`,
    });
    return { submit: submit.json(), status: status.json() };
  };

  beforeAll(async () => {
    env = await startApisEnv();
    chainId = String(env.chain.anvil.chainId);
    version = versionFor(env.compilers, "0.8.26");
    const built = await build(env.compilers, version, SOURCES, SETTINGS);
    original = await env.deploy(deployData(built.Ledger!));
    await env.sync();
    const first = await env.post("/api/v1/solidity/sources:verify-standard-json", {
      contracts: [{ chainId, address: original }],
      compiler: version,
      input: standardJsonText(SOURCES, SETTINGS),
    });
    expect(first.body.contractVerificationResults.items[0].status).toBe("FULLY_VERIFIED");
    // The same code deployed again: the indexer verifies the copy automatically (a full match).
    twin = await env.deploy(deployData(built.Ledger!));
    await env.sync();
    await keptFull();
  }, 240_000);
  afterAll(async () => {
    await env?.stop();
  });

  it("proxy verifier (/api/v1): PARTIALLY_VERIFIED, the kept full match named in the message", async () => {
    const r = await env.post("/api/v1/solidity/sources:verify-standard-json", {
      contracts: [{ chainId, address: twin }],
      compiler: version,
      input: standardJsonText(EDITED, SETTINGS),
    });
    const [item] = r.body.contractVerificationResults.items;
    expect(item).toMatchObject({
      status: "PARTIALLY_VERIFIED",
      matchType: "partial",
      creationMatch: "partial",
      runtimeMatch: "partial",
      contractName: "Ledger",
      alreadyVerified: true,
    });
    expect(item.message).toMatch(
      /already fully verified as Ledger\.sol:Ledger \(exact match, verified automatically/,
    );
    await keptFull();
  });

  it("eth-bytecode-db: SUCCESS with the sources sent, matchType PARTIAL", async () => {
    const r = await env.post("/api/v2/verifier/solidity/sources:verify-standard-json", {
      bytecode: await env.chain.client.getCode({ address: twin }),
      bytecodeType: "DEPLOYED_BYTECODE",
      compilerVersion: version,
      input: standardJsonText(EDITED, SETTINGS),
      metadata: { chainId, contractAddress: twin },
    });
    expect(r.statusCode).toBe(200);
    const body = r.body;
    expect(body.status).toBe("SUCCESS");
    expect(body.source).toMatchObject({ matchType: "PARTIAL", contractName: "Ledger", sourceFiles: EDITED });
    await keptFull();
  });

  it("Sourcify v2: the job's match is `match`, not `exact_match`", async () => {
    const post = await env.apis.inject({
      method: "POST",
      url: `/sourcify/v2/verify/${chainId}/${twin}`,
      payload: {
        stdJsonInput: JSON.parse(standardJsonText(EDITED, SETTINGS)),
        compilerVersion: version.replace(/^v/, ""),
        contractIdentifier: "Ledger.sol:Ledger",
      },
    });
    expect(post.statusCode).toBe(202);
    await env.jobs.idle();
    const job = (await env.apis.inject({ url: `/sourcify/v2/verify/${post.json().verificationId}` })).json();
    expect(job).toMatchObject({
      isJobCompleted: true,
      contract: { match: "match", creationMatch: "match", runtimeMatch: "match" },
    });
    await keptFull();
  });

  it("Etherscan: the job ends 'Already Verified' (its vocabulary has no partial pass), never a plain pass", async () => {
    const { submit, status } = await verifySourceCode(
      twin,
      standardJsonText(EDITED, SETTINGS),
      "Ledger.sol:Ledger",
    );
    expect(submit).toMatchObject({ status: "1" });
    expect(status).toEqual({ status: "1", message: "OK", result: "Already Verified" });
    await keptFull();
  });

  it("the verified SmartContract's compiler_settings are the settings as submitted with the verifier's output selection", async () => {
    // forge's settings as it sends them; its output selection is replaced by the one Blockscout's verifier compiles
    // with (foundry's complete selection), which Blockscout shows.
    const settings = {
      remappings: ["forge-std/=lib/forge-std/src/"],
      optimizer: { enabled: true, runs: 1000 },
      metadata: { useLiteralContent: false, bytecodeHash: "ipfs", appendCBOR: true },
      evmVersion: "paris",
      viaIR: false,
      libraries: {},
    };
    const sources = { "src/Other.sol": SOURCE.replace("contract Ledger", "contract Other") };
    const built = await build(env.compilers, version, sources, settings);
    const other = await env.deploy(deployData(built.Other!));
    await env.sync();
    const input = JSON.parse(standardJsonText(sources, settings));
    input.settings.outputSelection = { "*": { "*": ["abi", "evm.bytecode", "evm.deployedBytecode"] } };
    const { status } = await verifySourceCode(other, JSON.stringify(input), "src/Other.sol:Other");
    expect(status.result).toBe("Pass - Verified");
    const sc = (await env.apis.inject({ url: `/api/v2/smart-contracts/${other}` })).json();
    expect(sc.compiler_settings).toEqual({
      ...settings,
      outputSelection: { "*": { "": ["*"], "*": ["*"] } },
    });
    expect(sc).toMatchObject({ evm_version: "paris", optimization_enabled: true, optimization_runs: 1000 });
  });
});
