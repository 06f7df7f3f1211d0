import type { Hex } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RecordedVyperCompiler, vyperCases, withRecordedVyper } from "../helpers/recorded-vyper.js";
import { describeWithSharedFixtures } from "../helpers/shared-fixtures.js";
import { type ApisEnv, startApisEnv } from "../helpers/verification-apis.js";

// No Vyper compiler can be installed here: the recorded-output stand-in answers exactly the recorded inputs.
const cases = vyperCases();
const fixture = cases.find((c) => c.name === "vyper/constructor_args_immutables.json")!;
// One unnamed source (`simple.vy`), the compiler's default EVM version: what Blockscout's verify_vyper_contract sends.
const single = cases.find((c) => c.name === "vyper-compiler-outputs/simple.json")!;
const stand = new RecordedVyperCompiler(cases.map((c) => c.recording));

describeWithSharedFixtures("Vyper through the Etherscan (vyper-json) and Sourcify APIs", () => {
  let env: ApisEnv;
  let viaEtherscan: Hex;
  let viaSourcify: Hex;
  let viaPublish: Hex;

  beforeAll(async () => {
    env = await startApisEnv({ compilers: (registry) => withRecordedVyper(registry, stand) });
    // Both deployed and indexed before either is verified (a copy of verified code would be verified on sight).
    viaEtherscan = await env.deploy(fixture.creationInput as Hex);
    viaSourcify = await env.deploy(fixture.creationInput as Hex);
    viaPublish = await env.deploy(single.creationInput as Hex);
    await env.sync();
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("fixture has what the test needs", () => {
    expect(fixture.standardJson).not.toBeNull();
    expect(fixture.creationInput).not.toBeNull();
    expect(single.multiPart?.sourceFiles["simple.vy"]).toBeTypeOf("string");
  });

  it("verify_vyper_contract (Blockscout's form fields): verified before the answer", async () => {
    // URL-encoded (a multipart text field would have its lone line feeds made CRLF by the client, another source).
    const form = {
      method: "POST" as const,
      url: "/api?module=contract&action=verify_vyper_contract",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        addressHash: viaPublish,
        name: single.contractName,
        compilerVersion: single.version,
        contractSourceCode: single.multiPart!.sourceFiles["simple.vy"]!,
      }).toString(),
    };
    const r = await env.apis.inject(form);
    const body = r.json();
    expect(body, JSON.stringify(body)).toMatchObject({ status: "1", message: "OK" });
    const version = single.version.replace(/^v/, "").replace(/\+commit.*$/, "");
    expect(body.result).toMatchObject({
      Address: viaPublish.toLowerCase(),
      ContractName: single.contractName,
      CompilerVersion: `vyper:${version}`,
      FileName: "simple.vy",
      // Vyper 0.3.x is compiled with one selection for every file, which Blockscout shows.
      CompilerSettings: {
        outputSelection: { "*": ["abi", "evm.bytecode", "evm.deployedBytecode", "evm.methodIdentifiers"] },
      },
    });
    const again = await env.apis.inject(form);
    // A Vyper runtime match is partial at best, so a second submission is not refused as "already verified"; it
    // verifies again (Blockscout refuses any stored contract; Lookout lets a submission improve a partial match).
    expect(again.json().status).toBe("1");
  });

  it("verifysourcecode with codeformat=vyper-json and compilerversion vyper:x.y.z (forge's fields)", async () => {
    const version = fixture.version.replace(/^v/, "").replace(/\+commit.*$/, "");
    const r = await env.apis.inject({
      method: "POST",
      url: "/api",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        module: "contract",
        action: "verifysourcecode",
        contractaddress: viaEtherscan,
        sourceCode: JSON.stringify(fixture.standardJson),
        codeformat: "vyper-json",
        contractname: `${fixture.fileName}:${fixture.contractName}`,
        compilerversion: `vyper:${version}`,
        optimizationUsed: "1",
        runs: "1",
        constructorArguements: (fixture.constructorArguments ?? "").replace(/^0x/, ""),
        constructorArguments: (fixture.constructorArguments ?? "").replace(/^0x/, ""),
      }).toString(),
    });
    const submit = r.json();
    expect(submit, JSON.stringify(submit)).toMatchObject({ status: "1", message: "OK" });
    await env.jobs.idle();
    const status = await env.apis.inject({
      method: "GET",
      url: `/api?module=contract&action=checkverifystatus&guid=${submit.result}`,
    });
    expect(status.json()).toEqual({ status: "1", message: "OK", result: "Pass - Verified" });
    const src = await env.apis.inject({
      method: "GET",
      url: `/api?module=contract&action=getsourcecode&address=${viaEtherscan}`,
    });
    expect(src.json().result[0]).toMatchObject({
      ContractName: fixture.contractName,
      CompilerVersion: `vyper:${version}`,
    });
    // Blockscout's shape: the main file as SourceCode (Vyper JSON included), named by FileName.
    expect(src.json().result[0].FileName).toBe(fixture.fileName);
    expect(src.json().result[0].SourceCode).toBe(fixture.multiPart?.sourceFiles[fixture.fileName]);
  });

  it("Sourcify v2 with a bare Vyper version (forge sends x.y.z without commit)", async () => {
    const version = fixture.version.replace(/^v/, "").replace(/\+commit.*$/, "");
    const post = await env.apis.inject({
      method: "POST",
      url: `/sourcify/v2/verify/${env.chain.anvil.chainId}/${viaSourcify}`,
      payload: {
        stdJsonInput: fixture.standardJson,
        compilerVersion: version,
        contractIdentifier: `${fixture.fileName}:${fixture.contractName}`,
      },
    });
    expect(post.statusCode, post.body).toBe(202);
    await env.jobs.idle();
    const job = (
      await env.apis.inject({ method: "GET", url: `/sourcify/v2/verify/${post.json().verificationId}` })
    ).json();
    expect(job.isJobCompleted).toBe(true);
    expect(job.error, JSON.stringify(job.error)).toBeUndefined();
    expect(job.contract.match).not.toBeNull();
    // Vyper runtime code carries no source hash: at best a partial ("match") runtime match.
    expect(job.contract.runtimeMatch).toBe("match");
  });
});
