import type { Hex } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RecordedVyperCompiler, vyperCases, withRecordedVyper } from "../helpers/recorded-vyper.js";
import { describeWithSharedFixtures } from "../helpers/shared-fixtures.js";
import { type ApisEnv, startApisEnv } from "../helpers/verification-apis.js";

// No Vyper compiler can be installed here: the recorded-output stand-in answers exactly the recorded inputs.
const cases = vyperCases();
const fixture = cases.find((c) => c.name === "vyper/constructor_args_immutables.json")!;
const stand = new RecordedVyperCompiler(cases.map((c) => c.recording));

describeWithSharedFixtures("Vyper through the Etherscan (vyper-json) and Sourcify APIs", () => {
  let env: ApisEnv;
  let viaEtherscan: Hex;
  let viaSourcify: Hex;

  beforeAll(async () => {
    env = await startApisEnv({ compilers: (registry) => withRecordedVyper(registry, stand) });
    // Both deployed and indexed before either is verified (a copy of verified code would be verified on sight).
    viaEtherscan = await env.deploy(fixture.creationInput as Hex);
    viaSourcify = await env.deploy(fixture.creationInput as Hex);
    await env.sync();
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("fixture has what the test needs", () => {
    expect(fixture.standardJson).not.toBeNull();
    expect(fixture.creationInput).not.toBeNull();
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
    expect(src.json().result[0].SourceCode.startsWith("{{")).toBe(true);
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
