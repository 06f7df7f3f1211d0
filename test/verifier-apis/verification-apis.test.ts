import { encodeAbiParameters, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpc } from "../helpers/activity.js";
import { type ApisEnv, startApisEnv } from "../helpers/verification-apis.js";
import { build, deployData, standardJsonText, versionFor } from "../helpers/verify-contracts.js";

const SOURCES = {
  "src/MathLib.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
library MathLib {
    function twice(uint256 v) external pure returns (uint256) { return v * 2; }
}
`,
  "src/Vault.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
import {MathLib} from "./MathLib.sol";
contract Vault {
    string public label;
    uint256 public limit;
    constructor(string memory l, uint256 x) { label = l; limit = x; }
    function doubled() external view returns (uint256) { return MathLib.twice(limit); }
}
`,
};
const SETTINGS = { optimizer: { enabled: true, runs: 200 } };

describe("Etherscan-compatible /api and Sourcify-compatible /sourcify", () => {
  let env: ApisEnv;
  let version: string;
  let lib: Hex;
  // Linked by the compiler (settings.libraries), as forge does: the library address is part of the metadata.
  const deployVault = async (label: string, limit: bigint, sources = SOURCES) => {
    const built = await build(env.compilers, version, sources, linkedSettings());
    const address = await env.deploy(deployData(built.Vault!, [label, limit]));
    await env.sync();
    return address;
  };
  const form = (fields: Record<string, string>) =>
    env.apis.inject({
      method: "POST",
      url: "/api/",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(fields).toString(),
    });
  const get = (url: string) => env.apis.inject({ method: "GET", url });
  const poll = async (guid: string) => {
    await env.jobs.idle();
    const r = await form({ module: "contract", action: "checkverifystatus", guid });
    return r.json();
  };
  const linkedSettings = () => ({ ...SETTINGS, libraries: { "src/MathLib.sol": { MathLib: lib } } });
  const stdJsonFields = (address: Hex, extra: Record<string, string> = {}, sources = SOURCES) => ({
    apikey: "x",
    module: "contract",
    action: "verifysourcecode",
    contractaddress: address,
    sourceCode: standardJsonText(sources, linkedSettings()),
    codeformat: "solidity-standard-json-input",
    contractname: "src/Vault.sol:Vault",
    compilerversion: version,
    constructorArguements: encodeAbiParameters(
      [{ type: "string" }, { type: "uint256" }],
      ["first", 7n],
    ).slice(2),
    ...extra,
  });

  beforeAll(async () => {
    env = await startApisEnv();
    version = versionFor(env.compilers, "0.8.26");
    const built = await build(env.compilers, version, SOURCES, SETTINGS);
    lib = await env.deploy(deployData(built.MathLib!));
    await env.sync();
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("answers bad requests with status 0 and a message, never a 5xx", async () => {
    // An unknown module or action is Blockscout's 400 in its RPC envelope.
    for (const [url, message] of [
      ["/api?module=nope&action=getabi", "Unknown module"],
      ["/api?module=contract&action=nope", "Unknown action"],
      ["/api?module=contract&action=constructor", "Unknown action"],
    ]) {
      const r = await get(url!);
      expect(r.statusCode, url).toBe(400);
      expect(r.json(), url).toEqual({ status: "0", message, result: null });
    }
    const cases: Array<[string, RegExp]> = [
      ["/api?module=contract&action=getabi", /Missing address/],
      ["/api?module=contract&action=getabi&address=0x12", /Invalid address/],
      ["/api?module=contract&action=checkverifystatus", /Missing guid/],
      ["/api?module=contract&action=checkverifystatus&guid=abc", /^Unknown UID$/],
      [
        "/api?module=contract&action=checkverifystatus&guid=8b7ee2c1-bd2e-4d59-9b8b-0ce1d2bfd6a1",
        /^Unknown UID$/,
      ],
      ["/api?module=contract&action=verifysourcecode", /Missing contractaddress/],
      ["/api?module=contract&action=getcontractcreation&contractaddresses=0xzz", /Invalid contractaddresses/],
      [
        "/api?module=contract&action=getabi&address=0x0000000000000000000000000000000000000001&chainid=5",
        /Unsupported chainid/,
      ],
    ];
    for (const [url, re] of cases) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(200);
      const b = r.json();
      expect(b.status, url).toBe("0");
      expect(b.message, url).toBe("NOTOK");
      expect(b.result, url).toMatch(re);
    }
    const vault = "0x0000000000000000000000000000000000000001";
    const r = await form(stdJsonFields(vault as Hex, { codeformat: "cobol" }));
    expect(r.json()).toMatchObject({ status: "0", result: expect.stringMatching(/Invalid codeformat/) });
    const noCode = await form(stdJsonFields(vault as Hex));
    expect(noCode.json()).toEqual({
      status: "0",
      message: "NOTOK",
      result: `Unable to locate ContractCode at ${vault}`,
    });
    const badVersion = await form(stdJsonFields(vault as Hex, { compilerversion: "v0.1.2+commit.00000000" }));
    expect(badVersion.json().status).toBe("0");
    const badJson = await form(stdJsonFields(vault as Hex, { sourceCode: "{not json" }));
    expect(badJson.json()).toMatchObject({
      status: "0",
      result: expect.stringMatching(/Invalid sourceCode/),
    });
    // /api/v2 and /api/v1 stay theirs (an unknown GET under /api/v2 is Blockscout's 400 "Unknown API v2 action").
    expect((await get("/api/v2/nope")).statusCode).toBe(400);
  });

  it("verifies standard JSON from a form body through a job, then serves ABI, source and creation", async () => {
    const vault = await deployVault("first", 7n);
    const notYet = (await get(`/api?module=contract&action=getabi&address=${vault}`)).json();
    // Blockscout's answer (its RPCView error.json), not Etherscan's NOTOK with the text as the result.
    expect(notYet).toEqual({ status: "0", message: "Contract source code not verified", result: null });
    const unverified = (await get(`/api?module=contract&action=getsourcecode&address=${vault}`)).json();
    expect(unverified.status).toBe("1");
    // Blockscout's item for a contract without sources: the address alone.
    expect(unverified.result).toEqual([{ Address: vault.toLowerCase() }]);

    const submit = (await form(stdJsonFields(vault))).json();
    expect(submit).toMatchObject({ status: "1", message: "OK" });
    const guid = submit.result as string;
    expect(await poll(guid)).toEqual({ status: "1", message: "OK", result: "Pass - Verified" });

    const abi = (await get(`/api?module=contract&action=getabi&address=${vault}`)).json();
    expect(abi.status).toBe("1");
    expect(JSON.parse(abi.result).some((x: { name?: string }) => x.name === "doubled")).toBe(true);

    const src = (await get(`/api/?module=contract&action=getsourcecode&address=${vault}`)).json();
    const item = src.result[0];
    // Blockscout's shape: the main file as SourceCode, the others beside it, the settings as compiled.
    expect(item).toMatchObject({
      Address: vault.toLowerCase(),
      ContractName: "Vault",
      CompilerVersion: version,
      OptimizationUsed: "true",
      OptimizationRuns: 200,
      FileName: "src/Vault.sol",
      IsProxy: "false",
      ExternalLibraries: [{ name: "MathLib", address_hash: lib.toLowerCase() }],
    });
    expect(item).not.toHaveProperty("Proxy");
    expect(item).not.toHaveProperty("ImplementationAddress");
    expect(item.SourceCode).toContain("contract Vault");
    expect(item.AdditionalSources.map((f: { Filename: string }) => f.Filename)).not.toContain(
      "src/Vault.sol",
    );
    expect(item.AdditionalSources.length).toBeGreaterThan(0);
    expect(item.CompilerSettings).toMatchObject({ optimizer: { enabled: true, runs: 200 } });
    expect(item.ConstructorArguments).toBe(stdJsonFields(vault).constructorArguements);

    const creation = (
      await get(`/api?module=contract&action=getcontractcreation&contractaddresses=${vault},${lib}`)
    ).json();
    expect(creation.status).toBe("1");
    expect(creation.result).toHaveLength(2);
    expect(creation.result[0]).toMatchObject({
      contractAddress: vault.toLowerCase(),
      contractCreator: env.chain.accounts[0]!.address.toLowerCase(),
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      timestamp: expect.stringMatching(/^[1-9][0-9]*$/),
      contractFactory: "",
    });
    // The creation code is the deploying transaction's input, as the node holds it.
    const deployTx = await rpc<{ input: string; blockNumber: Hex }>(
      env.chain.anvil.url,
      "eth_getTransactionByHash",
      [creation.result[0].txHash],
    );
    expect(creation.result[0].creationBytecode).toBe(deployTx.input);
    expect(creation.result[0].blockNumber).toBe(String(Number(deployTx.blockNumber)));
    // More than 10 addresses: the first 10 are answered, as Blockscout does (the 11th, lib, is not looked at).
    const filler = Array.from({ length: 9 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);
    const many = (
      await get(
        `/api?module=contract&action=getcontractcreation&contractaddresses=${[vault, ...filler, lib].join(",")}`,
      )
    ).json();
    expect(many.status).toBe("1");
    expect(many.result.map((c: { contractAddress: string }) => c.contractAddress)).toEqual([
      vault.toLowerCase(),
    ]);

    // A full match exists: the submission is refused with the text forge and hardhat read as "already verified".
    const dup = (await form(stdJsonFields(vault))).json();
    expect(dup).toEqual({ status: "0", message: "NOTOK", result: "Contract source code already verified" });
  });

  it("takes parameters from the query string too, and reports a failed job", async () => {
    const vault = await deployVault("second", 9n);
    const q = new URLSearchParams({ module: "contract", action: "verifysourcecode" }).toString();
    const fields = stdJsonFields(vault);
    const wrong = fields.sourceCode.replace("twice(limit)", "twice(limit + 1)");
    const r = await env.apis.inject({
      method: "POST",
      url: `/api?${q}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ ...fields, module: "", action: "", sourceCode: wrong }).toString(),
    });
    const submit = r.json();
    // Empty body values do not hide the query's.
    expect(submit.status).toBe("1");
    const status = await poll(submit.result);
    expect(status.status).toBe("0");
    expect(status.result).toMatch(/^Fail - Unable to verify\. /);
  });

  it("a failed 4 MB submission (forge's form post) leaves a job row of kilobytes; its status still answers", async () => {
    const vault = await deployVault("large", 11n);
    // A real standard JSON input with a 4 MiB comment in one source, naming a contract that is not in it.
    const comment = `// ${"x".repeat(4 * 1024 * 1024)}\n`;
    const sources = { ...SOURCES, "src/Vault.sol": comment + SOURCES["src/Vault.sol"] };
    const fields = stdJsonFields(vault, { contractname: "src/Vault.sol:NotVault" }, sources);
    const payload = new URLSearchParams(fields).toString();
    expect(payload.length).toBeGreaterThan(4 * 1024 * 1024);
    const submit = (
      await env.apis.inject({
        method: "POST",
        url: "/api",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload,
      })
    ).json();
    expect(submit).toMatchObject({ status: "1", message: "OK" });
    const guid = submit.result as string;
    const status = await poll(guid);
    expect(status).toMatchObject({ status: "0", result: expect.stringMatching(/^Fail - /) });
    const [row] = await env.db.db.query<{ state: string; row_bytes: number; request_bytes: number | null }>(
      `select state, pg_column_size(j.*) as row_bytes, octet_length(request::text) as request_bytes
       from verification_jobs j where id = $1`,
      [guid],
    );
    console.log(`finished 4 MB verification job: ${JSON.stringify(row)} (submitted ${payload.length} bytes)`);
    expect(row).toMatchObject({ state: "done", request_bytes: null });
    expect(Number(row!.row_bytes)).toBeLessThan(16 * 1024);
    // Asked again later, the answer is the same failure (read from the outcome the row kept).
    expect(await poll(guid)).toEqual(status);
  });

  it("Sourcify v2: 202 job, job status, contract lookup, 409 only for exact+exact", async () => {
    // Other bytes than the Etherscan tests' contract, else the indexer verifies it automatically on sight.
    const sources = {
      ...SOURCES,
      "src/Vault.sol": SOURCES["src/Vault.sol"].replace(
        "function doubled",
        "function extra() external pure returns (uint256) { return 42; }\n    function doubled",
      ),
    };
    const vault = await deployVault("third", 11n, sources);
    const lookup = await get(`/sourcify/v2/contract/${env.chain.anvil.chainId}/${vault}`);
    expect(lookup.statusCode).toBe(404);
    expect(lookup.json()).toMatchObject({ match: null, creationMatch: null, runtimeMatch: null });
    expect(lookup.json().chainId).toBe(String(env.chain.anvil.chainId));

    const body = {
      stdJsonInput: JSON.parse(stdJsonFields(vault, {}, sources).sourceCode),
      compilerVersion: version.replace(/^v/, ""),
      contractIdentifier: "src/Vault.sol:Vault",
    };
    const url = `/sourcify/v2/verify/${env.chain.anvil.chainId}/${vault}`;
    const post = await env.apis.inject({ method: "POST", url, payload: body });
    expect(post.statusCode).toBe(202);
    const { verificationId } = post.json();
    await env.jobs.idle();
    const job = (await get(`/sourcify/v2/verify/${verificationId}`)).json();
    expect(job).toMatchObject({
      isJobCompleted: true,
      verificationId,
      contract: { match: "exact_match", creationMatch: "exact_match", runtimeMatch: "exact_match" },
    });
    expect(job.error).toBeUndefined();
    const found = await get(`/sourcify/v2/contract/${env.chain.anvil.chainId}/${vault}?fields=all`);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({
      match: "exact_match",
      compilation: { name: "Vault", fullyQualifiedName: "src/Vault.sol:Vault" },
    });
    // A repeated `fields` (or `omit`) is the same as one comma-separated list (it answered 500 before).
    const base = `/sourcify/v2/contract/${env.chain.anvil.chainId}/${vault}`;
    const repeated = await get(`${base}?fields=compilation&fields=abi`);
    expect(repeated.statusCode).toBe(200);
    expect(repeated.json()).toEqual((await get(`${base}?fields=compilation,abi`)).json());
    expect(repeated.json()).toHaveProperty("compilation");
    const omitted = await get(`${base}?omit=sources&omit=abi`);
    expect(omitted.statusCode).toBe(200);
    expect(omitted.json()).not.toHaveProperty("sources");
    expect(omitted.json()).toHaveProperty("compilation");
    const again = await env.apis.inject({ method: "POST", url, payload: body });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ customCode: "already_verified", errorId: expect.any(String) });
  });

  it("Sourcify v2 errors: {customCode, message, errorId}", async () => {
    const id = env.chain.anvil.chainId;
    const a = "0x0000000000000000000000000000000000000001";
    const cases: Array<[string, string, unknown, number, string]> = [
      ["POST", `/sourcify/v2/verify/999/${a}`, {}, 404, "unsupported_chain"],
      ["POST", `/sourcify/v2/verify/${id}/0x12`, {}, 400, "invalid_parameter"],
      ["POST", `/sourcify/v2/verify/${id}/${a}`, { stdJsonInput: {} }, 400, "invalid_parameter"],
      [
        "POST",
        `/sourcify/v2/verify/${id}/${a}`,
        {
          stdJsonInput: { language: "Solidity", sources: { "a.sol": { content: "" } } },
          compilerVersion: "0.8.26",
          contractIdentifier: "Foo",
        },
        400,
        "invalid_parameter",
      ],
      ["GET", "/sourcify/v2/verify/not-a-job", undefined, 404, "job_not_found"],
      ["GET", "/sourcify/v2/nothing", undefined, 404, "route_not_found"],
    ];
    for (const [method, url, payload, status, code] of cases) {
      const r = await env.apis.inject({
        method: method as "GET",
        url,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(r.statusCode, url).toBe(status);
      expect(r.json(), url).toMatchObject({
        customCode: code,
        message: expect.any(String),
        errorId: expect.any(String),
      });
    }
    const bad = await env.apis.inject({
      method: "POST",
      url: `/sourcify/v2/verify/${id}/${a}`,
      headers: { "content-type": "application/json" },
      payload: "{oops",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().customCode).toBe("invalid_json");
  });
});
