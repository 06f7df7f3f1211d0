import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApisEnv, startApisEnv } from "../helpers/verification-apis.js";
import { build, deployData, versionFor } from "../helpers/verify-contracts.js";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Counter {
    uint256 public count;
    constructor(uint256 start) { count = start; }
    function bump() external { count += 1; }
}
`;
const SETTINGS = { optimizer: { enabled: true, runs: 200 } };
const ARGS = [7n];

/** A multipart body: fields, and files under `files[i]` as Blockscout's docs send them. */
function multipart(fields: Record<string, string>, files: Record<string, string>): FormData {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  let i = 0;
  for (const [name, content] of Object.entries(files)) body.set(`files[${i++}]`, new Blob([content]), name);
  return body;
}

describe("Blockscout's synchronous publish actions: verify, verify_via_sourcify, /api/v1/verified_smart_contracts", () => {
  let env: ApisEnv;
  let version: string;
  let metadata: string;
  // One deployment per way of verifying (a copy of verified code would be verified on sight by the indexer).
  const at: Record<string, Hex> = {};
  const verifyFields = (address: string, extra: Record<string, unknown> = {}) => ({
    addressHash: address,
    name: "Counter",
    compilerVersion: version,
    optimization: true,
    optimizationRuns: 200,
    contractSourceCode: SOURCE,
    ...extra,
  });
  const post = (url: string, payload: unknown) =>
    env.apis.inject({ method: "POST", url, payload: payload as object });

  beforeAll(async () => {
    env = await startApisEnv();
    version = versionFor(env.compilers, "0.8.26");
    // Compiled as a single file named `${name}.sol`, as Blockscout names the flattened source: a full match.
    const built = await build(env.compilers, version, { "Counter.sol": SOURCE }, SETTINGS);
    const out = await env.compilers.compile({
      language: "Solidity",
      version,
      input: {
        language: "Solidity",
        sources: { "Counter.sol": { content: SOURCE } },
        settings: { ...SETTINGS, outputSelection: { "*": { "*": ["metadata"] } } },
      },
    });
    metadata = (out.contracts as any)["Counter.sol"].Counter.metadata;
    for (const k of ["verify", "sourcify", "v1", "bad"])
      at[k] = await env.deploy(deployData(built.Counter!, ARGS));
    await env.sync();
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("answers bad requests as Blockscout does (status 0, the text as message, result null)", async () => {
    const url = "/api?module=contract&action=verify";
    expect((await post(url, { name: "Counter" })).json()).toEqual({
      status: "0",
      message: "addressHash is required.",
      result: null,
    });
    expect((await post(url, verifyFields(at.bad!, { contractSourceCode: undefined }))).json()).toMatchObject({
      message: "contractSourceCode is required.",
    });
    expect((await post(url, verifyFields("0x12"))).json()).toEqual({
      status: "0",
      message: "Invalid address hash",
      result: null,
    });
    const empty = "0x00000000000000000000000000000000000000aa";
    expect((await post(url, verifyFields(empty))).json()).toEqual({
      status: "0",
      message: "Address is not a smart-contract",
      result: "Address is not a smart-contract",
    });
    const unknown = (
      await post(url, verifyFields(at.bad!, { compilerVersion: "v0.1.2+commit.00000000" }))
    ).json();
    expect(unknown.status).toBe("0");
    expect(unknown.message).toMatch(/0\.1\.2/);
    // Sources that compile to other code: the job fails, and the answer says why after Blockscout's prefix.
    const other = SOURCE.replace("count += 1", "count += 2");
    const mismatch = (await post(url, verifyFields(at.bad!, { contractSourceCode: other }))).json();
    expect(mismatch).toMatchObject({ status: "0", result: null });
    expect(mismatch.message).toMatch(/^Something went wrong while publishing the contract: /);
    // verify_via_sourcify: Blockscout's file checks.
    const sourcify = "/api?module=contract&action=verify_via_sourcify";
    expect((await post(sourcify, multipart({ addressHash: at.bad! }, {}))).json()).toMatchObject({
      message: "You should attach at least 2 files",
    });
    expect(
      (await post(sourcify, multipart({ addressHash: at.bad! }, { "a.sol": SOURCE, "b.txt": "x" }))).json(),
    ).toMatchObject({ message: "You should attach at least one *.json and one *.sol files" });
    expect(
      (await post(sourcify, multipart({}, { "a.sol": SOURCE, "m.json": metadata }))).json(),
    ).toMatchObject({
      message: "addressHash is required.",
    });
  });

  it("verify (JSON body): verified before the answer, which is the contract's getsourcecode item", async () => {
    const r = await post("/api?module=contract&action=verify", verifyFields(at.verify!));
    const body = r.json();
    expect(r.statusCode).toBe(200);
    expect(body, JSON.stringify(body)).toMatchObject({ status: "1", message: "OK" });
    expect(body.result).toMatchObject({
      Address: at.verify!.toLowerCase(),
      ContractName: "Counter",
      CompilerVersion: version,
      OptimizationUsed: "true",
      OptimizationRuns: 200,
      FileName: "Counter.sol",
      SourceCode: SOURCE,
      // Blockscout's verifier keeps the output selection it compiled with.
      CompilerSettings: {
        optimizer: { enabled: true, runs: 200 },
        outputSelection: { "*": { "": ["*"], "*": ["*"] } },
      },
    });
    // The same record getsourcecode serves, as an object rather than a list.
    const src = (
      await env.apis.inject({
        method: "GET",
        url: `/api?module=contract&action=getsourcecode&address=${at.verify}`,
      })
    ).json();
    expect(src.result[0]).toEqual(body.result);
    const again = (await post("/api?module=contract&action=verify", verifyFields(at.verify!))).json();
    expect(again).toEqual({ status: "0", message: "Smart-contract already verified.", result: null });
  });

  it("verify_via_sourcify (multipart metadata and source, module and action in the query)", async () => {
    const r = await post(
      "/api?module=contract&action=verify_via_sourcify",
      multipart({ addressHash: at.sourcify! }, { "Counter.sol": SOURCE, "metadata.json": metadata }),
    );
    const body = r.json();
    expect(body, JSON.stringify(body)).toMatchObject({ status: "1", message: "OK" });
    expect(body.result).toMatchObject({ Address: at.sourcify!.toLowerCase(), ContractName: "Counter" });
    const full = await env.apis.inject({ method: "GET", url: `/api/v2/smart-contracts/${at.sourcify}` });
    expect(full.json()).toMatchObject({ is_verified: true, is_fully_verified: true });
  });

  it("POST /api/v1/verified_smart_contracts: 201 success, then 422s in Blockscout's words", async () => {
    const fields = {
      address_hash: at.v1!,
      name: "Counter",
      compiler_version: version,
      optimization: "true",
      optimization_runs: "200",
      contract_source_code: SOURCE,
    };
    const r = await post("/api/v1/verified_smart_contracts", fields);
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toEqual({ status: "success" });
    const again = await post("/api/v1/verified_smart_contracts", fields);
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ error: "verified code already exists for this address" });
    const bad = await post("/api/v1/verified_smart_contracts", { ...fields, address_hash: "0x1" });
    expect([bad.statusCode, bad.json()]).toEqual([422, { error: "address_hash is invalid" }]);
    const blank = await post("/api/v1/verified_smart_contracts", { ...fields, name: "" });
    expect([blank.statusCode, blank.json()]).toEqual([422, { name: "can't be blank" }]);
  });
});
