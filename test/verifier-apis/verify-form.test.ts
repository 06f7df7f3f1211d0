import type { Socket } from "phoenix";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, join, phoenixSocket } from "../helpers/live.js";
import { RecordedVyperCompiler, vyperCases, withRecordedVyper } from "../helpers/recorded-vyper.js";
import { build, deployData, versionFor } from "../helpers/verify-contracts.js";
import { startVerifyFormEnv, type VerifyFormEnv } from "../helpers/verify-form.js";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Greeter {
    string public greeting;
    constructor(string memory g) { greeting = g; }
    function greet() external view returns (string memory) { return greeting; }
}
`;
const FILE = "Greeter.sol";
const settings = { optimizer: { enabled: true, runs: 200 } };

// The Vyper methods use a recorded real compiler output from ../shared/fixtures; without it they are skipped.
const vyperCase = vyperCases().find((c) => c.name === "vyper/constructor_args_immutables.json");
const vyper = vyperCase!;
const itVyper = vyperCase ? it : it.skip;
const stand = new RecordedVyperCompiler(vyperCases().map((c) => c.recording));

/** A browser-style multipart body: text fields and files under `files[i]` / `interfaces[i]`. */
function form(fields: Record<string, string>, files: Record<string, Record<string, string>> = {}): FormData {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  for (const [field, list] of Object.entries(files)) {
    let i = 0;
    for (const [name, content] of Object.entries(list))
      body.set(`${field}[${i++}]`, new Blob([content]), name);
  }
  return body;
}

describe("the frontend's verify form: config, every method as the frontend sends it, result on the socket", () => {
  let env: VerifyFormEnv;
  let version: string;
  let metadata: string;
  const solidity: Record<string, Hex> = {};
  const vyperAt: Record<string, Hex> = {};
  const sockets: Socket[] = [];

  beforeAll(async () => {
    env = await startVerifyFormEnv({ compilers: (registry) => withRecordedVyper(registry, stand) });
    version = versionFor(env.compilers, "0.8.26");
    const built = await build(env.compilers, version, { [FILE]: SOURCE }, settings);
    const out = await env.compilers.compile({
      language: "Solidity",
      version,
      input: {
        language: "Solidity",
        sources: { [FILE]: { content: SOURCE } },
        settings: { ...settings, outputSelection: { "*": { "*": ["metadata"] } } },
      },
    });
    metadata = (out.contracts as any)[FILE].Greeter.metadata;
    // Everything deployed and indexed before anything is verified (a copy of verified code is verified on sight).
    for (const m of ["flattened-code", "standard-input", "multi-part", "sourcify"])
      solidity[m] = await env.deploy(deployData(built.Greeter!, [`hello ${m}`]));
    if (vyperCase)
      for (const m of ["vyper-code", "vyper-multi-part", "vyper-standard-input"])
        vyperAt[m] = await env.deploy(vyperCase.creationInput as Hex);
    await env.sync();
  }, 120_000);
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await env?.stop();
  });

  /** Joins the address's channel as the form does, posts, and waits for `verification_result`. */
  async function submit(address: Hex, method: string, body: FormData | object) {
    const socket = phoenixSocket(env.base);
    sockets.push(socket);
    const results = collect(await join(socket, `addresses:${address.toLowerCase()}`), "verification_result");
    const isForm = body instanceof FormData;
    const r = await fetch(
      `${env.base}/api/v2/smart-contracts/${address.toLowerCase()}/verification/via/${method}`,
      {
        method: "POST",
        body: isForm ? body : JSON.stringify(body),
        ...(isForm ? {} : { headers: { "content-type": "application/json" } }),
      },
    );
    return {
      status: r.status,
      body: (await r.json()) as any,
      result: () => results.next(() => true, 120_000),
    };
  }

  async function contract(address: Hex) {
    const r = await fetch(`${env.base}/api/v2/smart-contracts/${address}`);
    return r.json() as Promise<any>;
  }

  it("serves the form's config (SmartContractVerificationConfigRaw)", async () => {
    const r = await fetch(`${env.base}/api/v2/smart-contracts/verification/config`);
    expect(r.status).toBe(200);
    const c = (await r.json()) as any;
    expect(c.verification_options).toEqual(
      expect.arrayContaining([
        "flattened-code",
        "standard-input",
        "multi-part",
        "vyper-code",
        "vyper-multi-part",
        "vyper-standard-input",
        "sourcify",
      ]),
    );
    expect(c.solidity_compiler_versions).toContain(version);
    if (vyperCase) expect(c.vyper_compiler_versions.length).toBeGreaterThan(0);
    expect(c.solidity_evm_versions).toContain("cancun");
    expect(c.solidity_evm_versions.at(-1)).toBe("default");
    expect(c.vyper_evm_versions).toContain("london".replace("london", "paris"));
    expect(c.license_types).toMatchObject({ none: 1, mit: 3, bsl_1_1: 14 });
    expect(typeof c.is_rust_verifier_microservice_enabled).toBe("boolean");
  });

  it("flattened-code (JSON body)", async () => {
    const s = await submit(solidity["flattened-code"]!, "flattened-code", {
      compiler_version: version,
      source_code: SOURCE,
      is_optimization_enabled: true,
      is_yul_contract: false,
      optimization_runs: "200",
      contract_name: "Greeter",
      evm_version: "default",
      autodetect_constructor_args: true,
      constructor_args: "",
      license_type: "mit",
    });
    expect(s).toMatchObject({ status: 200, body: { message: "Smart-contract verification started" } });
    expect(await s.result()).toEqual({ status: "success" });
    const c = await contract(solidity["flattened-code"]!);
    expect(c).toMatchObject({ is_verified: true, is_fully_verified: true, name: "Greeter" });
  });

  it("standard-input (multipart, the JSON as files[0])", async () => {
    const input = JSON.stringify({
      language: "Solidity",
      sources: { [FILE]: { content: SOURCE } },
      settings,
    });
    const s = await submit(
      solidity["standard-input"]!,
      "standard-input",
      form(
        {
          compiler_version: version,
          license_type: "none",
          contract_name: "Greeter",
          autodetect_constructor_args: "true",
          constructor_args: "",
        },
        { files: { "input.json": input } },
      ),
    );
    expect(s.body).toEqual({ message: "Smart-contract verification started" });
    expect(await s.result()).toEqual({ status: "success" });
    expect(await contract(solidity["standard-input"]!)).toMatchObject({
      is_verified: true,
      is_fully_verified: true,
    });
  });

  it("multi-part (multipart, sources as files[i])", async () => {
    const s = await submit(
      solidity["multi-part"]!,
      "multi-part",
      form(
        {
          compiler_version: version,
          evm_version: "default",
          license_type: "none",
          is_optimization_enabled: "true",
          optimization_runs: "200",
        },
        { files: { [FILE]: SOURCE } },
      ),
    );
    expect(s.body).toEqual({ message: "Smart-contract verification started" });
    expect(await s.result()).toEqual({ status: "success" });
    expect(await contract(solidity["multi-part"]!)).toMatchObject({
      is_verified: true,
      is_fully_verified: true,
    });
  });

  it("sourcify (multipart, metadata and sources)", async () => {
    const s = await submit(
      solidity.sourcify!,
      "sourcify",
      form(
        { chosen_contract_index: "0", license_type: "none" },
        { files: { "metadata.json": metadata, [FILE]: SOURCE } },
      ),
    );
    expect(s.body).toEqual({ message: "Smart-contract verification started" });
    expect(await s.result()).toEqual({ status: "success" });
    expect(await contract(solidity.sourcify!)).toMatchObject({ is_verified: true, is_fully_verified: true });
  });

  const vyperSource = () => (vyper.standardJson as any).sources["test.vy"].content as string;

  itVyper("vyper-code (JSON body)", async () => {
    const s = await submit(vyperAt["vyper-code"]!, "vyper-code", {
      compiler_version: vyper.version,
      evm_version: "london",
      source_code: vyperSource(),
      contract_name: "test",
      constructor_args: "",
      license_type: "none",
    });
    expect(s.body).toEqual({ message: "Smart-contract verification started" });
    expect(await s.result()).toEqual({ status: "success" });
    expect(await contract(vyperAt["vyper-code"]!)).toMatchObject({ is_verified: true, language: "vyper" });
  });

  itVyper("vyper-multi-part (multipart)", async () => {
    const s = await submit(
      vyperAt["vyper-multi-part"]!,
      "vyper-multi-part",
      form(
        { compiler_version: vyper.version, evm_version: "london", license_type: "none" },
        { files: { "test.vy": vyperSource() } },
      ),
    );
    expect(s.body).toEqual({ message: "Smart-contract verification started" });
    expect(await s.result()).toEqual({ status: "success" });
    expect(await contract(vyperAt["vyper-multi-part"]!)).toMatchObject({
      is_verified: true,
      language: "vyper",
    });
  });

  itVyper("vyper-standard-input (multipart)", async () => {
    const s = await submit(
      vyperAt["vyper-standard-input"]!,
      "vyper-standard-input",
      form(
        { compiler_version: vyper.version, license_type: "none" },
        { files: { "input.json": JSON.stringify(vyper.standardJson) } },
      ),
    );
    expect(s.body).toEqual({ message: "Smart-contract verification started" });
    expect(await s.result()).toEqual({ status: "success" });
    expect(await contract(vyperAt["vyper-standard-input"]!)).toMatchObject({
      is_verified: true,
      language: "vyper",
    });
  });

  it("answers as Blockscout for a verified contract, a non-contract, bad input; reports a failure on the socket", async () => {
    const again = await submit(solidity["flattened-code"]!, "flattened-code", {
      compiler_version: version,
      source_code: SOURCE,
    });
    expect(again).toMatchObject({ status: 200, body: { message: "Already verified" } });
    const eoa = env.chain.accounts[7]!.address;
    const none = await submit(eoa, "flattened-code", { compiler_version: version, source_code: SOURCE });
    expect(none).toMatchObject({ status: 404, body: { message: "Address is not a smart-contract" } });
    // A contract nobody verified yet: bad form input first, then a source that is not its code.
    const other = await env.deploy(
      deployData((await build(env.compilers, version, { [FILE]: SOURCE }, settings)).Greeter!, ["x"]),
    );
    await env.sync();
    const missing = await submit(other, "multi-part", form({ compiler_version: version }));
    expect(missing.status).toBe(422);
    expect((missing.body as any).errors[0].source.pointer).toBe("/files");
    const unknown = await submit(other, "stylus-github-repository", {});
    expect(unknown.status).toBe(404);

    // A source that compiles but is not the deployed code: the error comes on the socket, as the form expects.
    const wrong = await submit(other, "flattened-code", {
      compiler_version: version,
      source_code: SOURCE.replace("greeting = g; }", "greeting = g; }\n    function extra() external {}"),
      is_optimization_enabled: true,
      optimization_runs: "200",
      contract_name: "Greeter",
    });
    expect(wrong.body).toEqual({ message: "Smart-contract verification started" });
    const result = (await wrong.result()) as any;
    expect(result.status).toBe("error");
    expect(result.errors.contract_source_code.length).toBeGreaterThan(0);
  });
});
