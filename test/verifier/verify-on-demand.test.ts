import { encodeAbiParameters, encodeFunctionData, type Hex, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lookUpCreation, verify } from "../../src/verifier/service/index.js";
import { rpc } from "../helpers/activity.js";
import type { TestChain } from "../helpers/anvil.js";
import { type ApisEnv, startApisEnv } from "../helpers/verification-apis.js";
import { build, deployData, standardJsonText, versionFor } from "../helpers/verify-contracts.js";

const SOURCES = {
  "src/Vault.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Vault {
    uint256 public immutable cap;
    string public label;
    constructor(string memory l, uint256 c) { label = l; cap = c; }
}
`,
  "src/Factory.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Child {
    uint256 public immutable x;
    address public owner;
    constructor(uint256 v, address o) { x = v; owner = o; }
}
contract Factory {
    function make(bytes32 salt, uint256 v) external returns (address a) { a = address(new Child{salt: salt}(v, msg.sender)); }
}
`,
};
const SETTINGS = { optimizer: { enabled: true, runs: 200 } };
const FACTORY_ABI = parseAbi(["function make(bytes32 salt, uint256 v) returns (address)"]);
const VAULT_ARGS = encodeAbiParameters([{ type: "string" }, { type: "uint256" }], ["on demand", 42n]);

type Deployed = { address: Hex; tx: Hex; args: Hex };
type Kind = "vault" | "child";
const NAMES: Record<Kind, string> = { vault: "src/Vault.sol:Vault", child: "src/Factory.sol:Child" };

/**
 * Verification right after deployment (the indexer held back: it never runs between deployment and the first
 * verification) gives the same result as after indexing, and the same on a chain only in CHAINS_CONFIG, never
 * indexed: creation match, constructor arguments, creation transaction, through all three dialects.
 */
describe("creation data on demand", () => {
  let env: ApisEnv;
  let version: string;
  let built: Awaited<ReturnType<typeof build>>;
  const factories = new Map<TestChain, Hex>();

  const send = async (on: TestChain, data: Hex, to?: Hex) => {
    const from = on.accounts[0]!.address;
    const tx = await rpc<Hex>(on.anvil.url, "eth_sendTransaction", [
      { from, data, gas: "0x1c9c380", ...(to ? { to } : {}) },
    ]);
    let receipt: { contractAddress: Hex | null; status: Hex } | null = null;
    while (!receipt) receipt = await rpc(on.anvil.url, "eth_getTransactionReceipt", [tx]);
    expect(receipt.status).toBe("0x1");
    return { tx, contractAddress: receipt.contractAddress };
  };
  let salt = 0n;
  const deploy = async (on: TestChain, kind: Kind): Promise<Deployed> => {
    if (kind === "vault") {
      const r = await send(on, deployData(built.Vault!, ["on demand", 42n]));
      return { address: r.contractAddress!, tx: r.tx, args: VAULT_ARGS };
    }
    const factory = factories.get(on)!;
    const data = encodeFunctionData({
      abi: FACTORY_ABI,
      functionName: "make",
      args: [`0x${(++salt).toString(16).padStart(64, "0")}`, 9n],
    });
    const from = on.accounts[0]!.address;
    const predicted = await rpc<Hex>(on.anvil.url, "eth_call", [{ from, to: factory, data }, "latest"]);
    const r = await send(on, data, factory);
    return {
      address: `0x${predicted.slice(26)}` as Hex,
      tx: r.tx,
      args: encodeAbiParameters([{ type: "uint256" }, { type: "address" }], [9n, from]),
    };
  };

  const chainOf = (on: TestChain) => String(on.anvil.chainId);
  const input = () => standardJsonText(SOURCES, SETTINGS);

  /** Each dialect verifies and reads back what it shows; results exclude what differs per address. */
  const dialects = {
    async v1(on: TestChain, d: Deployed) {
      const r = await env.post("/api/v1/solidity/sources:verify-standard-json", {
        contracts: [{ chainId: chainOf(on), address: d.address }],
        compiler: version,
        input: input(),
      });
      const item = r.body.contractVerificationResults.items[0];
      return {
        status: item.status,
        matchType: item.matchType,
        creationMatch: item.creationMatch,
        runtimeMatch: item.runtimeMatch,
        constructorArguments: item.constructorArguments?.encoded ?? null,
      };
    },
    async etherscan(on: TestChain, d: Deployed, kind: Kind) {
      const form = (fields: Record<string, string>) =>
        env.apis.inject({
          method: "POST",
          url: "/api",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          payload: new URLSearchParams({ module: "contract", chainid: chainOf(on), ...fields }).toString(),
        });
      const sub = (
        await form({
          action: "verifysourcecode",
          contractaddress: d.address,
          sourceCode: input(),
          codeformat: "solidity-standard-json-input",
          contractname: NAMES[kind],
          compilerversion: version,
        })
      ).json();
      expect(sub.status).toBe("1");
      await env.jobs.idle();
      const status = (await form({ action: "checkverifystatus", guid: sub.result })).json();
      const source = (await form({ action: "getsourcecode", address: d.address })).json();
      return { status: status.result, constructorArguments: `0x${source.result[0].ConstructorArguments}` };
    },
    async sourcify(on: TestChain, d: Deployed, kind: Kind) {
      const post = await env.apis.inject({
        method: "POST",
        url: `/sourcify/v2/verify/${chainOf(on)}/${d.address}`,
        payload: {
          stdJsonInput: JSON.parse(input()),
          compilerVersion: version.slice(1),
          contractIdentifier: NAMES[kind],
        },
      });
      expect(post.statusCode).toBe(202);
      await env.jobs.idle();
      const c = (
        await env.apis.inject({ url: `/sourcify/v2/contract/${chainOf(on)}/${d.address}?fields=all` })
      ).json();
      return {
        match: c.match,
        creationMatch: c.creationMatch,
        runtimeMatch: c.runtimeMatch,
        creationTransaction: c.deployment?.transactionHash === d.tx,
      };
    },
  };
  type Dialect = keyof typeof dialects;
  const DIALECTS = Object.keys(dialects) as Dialect[];
  const KINDS: Kind[] = ["vault", "child"];

  const verifyAll = async (on: TestChain, deployed: Map<string, Deployed>) => {
    const out: Record<string, unknown> = {};
    for (const dialect of DIALECTS) {
      for (const kind of KINDS) {
        const d = deployed.get(`${dialect}/${kind}`)!;
        out[`${dialect}/${kind}`] = await dialects[dialect](on, d, kind);
      }
    }
    return out;
  };
  const deployAll = async (on: TestChain) => {
    const m = new Map<string, Deployed>();
    for (const dialect of DIALECTS)
      for (const kind of KINDS) m.set(`${dialect}/${kind}`, await deploy(on, kind));
    return m;
  };
  const explorerArgs = async (address: Hex) =>
    (await env.app.inject({ url: `/api/v2/smart-contracts/${address}` })).json().constructor_args as
      | string
      | null;

  beforeAll(async () => {
    // A short wait for the indexer (which never runs here before the first verification), then the node.
    env = await startApisEnv({ secondChain: true, creationLookup: { indexWaitMs: 200, maxCalls: 64 } });
    version = versionFor(env.compilers, "0.8.26");
    built = await build(env.compilers, version, SOURCES, SETTINGS);
    for (const on of [env.chain, env.other!]) {
      factories.set(on, (await send(on, deployData(built.Factory!))).contractAddress!);
    }
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("gives the same results right after deployment as after indexing, and on a CHAINS_CONFIG chain", async () => {
    const early = await deployAll(env.chain);
    const late = await deployAll(env.chain);
    const other = await deployAll(env.other!);
    const rows = await env.db.db.query<{ n: string }>("select count(*) as n from contract_creations");
    expect(Number(rows[0]!.n)).toBe(0); // nothing indexed yet: the early verifications cannot read our index

    const before = await verifyAll(env.chain, early);
    await env.sync();
    const after = await verifyAll(env.chain, late);
    const elsewhere = await verifyAll(env.other!, other);

    const expected = (kind: Kind, d: Deployed) => ({
      [`v1/${kind}`]: {
        status: "FULLY_VERIFIED",
        matchType: "full",
        creationMatch: "full",
        runtimeMatch: "full",
        constructorArguments: d.args,
      },
      [`etherscan/${kind}`]: { status: "Pass - Verified", constructorArguments: d.args },
      [`sourcify/${kind}`]: {
        match: "exact_match",
        creationMatch: "exact_match",
        runtimeMatch: "exact_match",
        creationTransaction: true,
      },
    });
    const all = (m: Map<string, Deployed>) => ({
      ...expected("vault", m.get("v1/vault")!),
      ...expected("child", m.get("v1/child")!),
    });
    expect(before).toEqual(all(early));
    expect(after).toEqual(all(late));
    expect(elsewhere).toEqual(all(other));
    expect(before).toEqual(after);

    // The explorer's contract view shows the constructor arguments of the early verification too.
    for (const kind of KINDS) {
      const d = early.get(`v1/${kind}`)!;
      expect(await explorerArgs(d.address)).toBe(d.args);
    }
  });

  it("caches what the node told, bounds the RPC calls and says why when it cannot tell", async () => {
    const other = env.chains.get("31338")!;
    const d = await deploy(env.other!, "child");
    const stats = { lookups: 0, calls: 0 };
    const o = { indexWaitMs: 0, maxCalls: 64, stats };
    const first = await lookUpCreation(other, env.db.db, d.address, o);
    expect(first.creation).toMatchObject({ transactionHash: d.tx });
    expect(first.creation!.creationInput.endsWith(d.args.slice(2))).toBe(true);
    expect(stats.lookups).toBe(1);
    const callsFirst = stats.calls;
    const again = await lookUpCreation(other, env.db.db, d.address, o);
    expect(again).toEqual(first);
    expect(stats).toEqual({ lookups: 1, calls: callsFirst + 1 }); // one call: is its block still on the chain?

    const bounded = await lookUpCreation(other, null, (await deploy(env.other!, "vault")).address, {
      indexWaitMs: 0,
      maxCalls: 1,
    });
    expect(bounded).toEqual({ creation: null, unavailable: expect.stringMatching(/limit of 1 RPC calls/) });
  });

  it("finds the same creations without Otterscan: binary search, block receipts, then either kind of block trace", async () => {
    const real = env.chains.get("31338")!;
    /** The node without some methods (as most nodes are), answering "method not found" for them. */
    const without = (...missing: string[]) => ({
      ...real,
      rpc: {
        ...real.rpc,
        request<T>(method: string, params: unknown[]): Promise<T> {
          if (missing.includes(method))
            return Promise.reject(new Error(`the method ${method} does not exist`));
          return real.rpc.request<T>(method, params);
        },
      },
    });
    const vault = await deploy(env.other!, "vault");
    const child = await deploy(env.other!, "child");
    const o = { indexWaitMs: 0, maxCalls: 64 };
    const direct = await lookUpCreation(real, null, child.address, o);
    for (const node of [
      without("ots_getContractCreator"),
      without("ots_getContractCreator", "trace_transaction", "debug_traceBlockByNumber"),
    ]) {
      expect(await lookUpCreation(node, null, child.address, o)).toEqual(direct);
      const v = await lookUpCreation(node, null, vault.address, o);
      expect(v.creation).toMatchObject({ transactionHash: vault.tx });
      expect(v.creation!.creationInput.endsWith(vault.args.slice(2))).toBe(true);
    }
    const blind = await lookUpCreation(
      without("ots_getContractCreator", "debug_traceBlockByNumber", "trace_block"),
      null,
      child.address,
      o,
    );
    expect(blind).toEqual({ creation: null, unavailable: expect.stringMatching(/offers no call traces/) });
  });

  it("fails sources whose creation code differs (v = 8 for v = 7), naming the byte; runtime-only only when creation is unknown", async () => {
    const simple = (v: number) => ({
      "src/Simple.sol": `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Simple { uint256 public v = ${v}; }\n`,
    });
    const compiled = await build(env.compilers, version, simple(7), SETTINGS);
    const request = (on: TestChain, address: Hex, v: number) => ({
      language: "Solidity" as const,
      compiler: version,
      contracts: [{ chainId: chainOf(on), address }],
      input: JSON.parse(standardJsonText(simple(v), SETTINGS)),
    });
    for (const on of [env.chain, env.other!]) {
      const { contractAddress } = await send(on, deployData(compiled.Simple!));
      const r = await env.post("/api/v1/solidity/sources:verify-standard-json", {
        contracts: [{ chainId: chainOf(on), address: contractAddress }],
        compiler: version,
        input: standardJsonText(simple(8), SETTINGS),
      });
      const item = r.body.contractVerificationResults.items[0];
      expect(item).toMatchObject({
        status: "FAILURE",
        diagnosis: {
          reason: "creation_code_mismatch",
          closest: { side: "creation", contractName: "Simple", firstDifferingByte: expect.any(Number) },
        },
      });
      expect(item.message).toMatch(/creation code differs from the on-chain creation input at byte \d+/);

      // When the node cannot tell the creation (here: a budget of one call), runtime-only matching says why.
      const unknown = (await send(on, deployData(compiled.Simple!))).contractAddress!;
      const blind = await verify(
        {
          chains: env.chains,
          compilers: env.compilers,
          db: env.db.db,
          creationLookup: { indexWaitMs: 0, maxCalls: 1 },
        },
        request(on, unknown, 8),
      );
      expect(blind.kind === "verification" && blind.items[0]).toMatchObject({
        status: "PARTIALLY_VERIFIED",
        creationMatch: null,
        runtimeMatch: "partial",
        creationUnavailable: expect.stringMatching(/limit of 1 RPC calls/),
      });
      const right = await env.post("/api/v1/solidity/sources:verify-standard-json", {
        contracts: [{ chainId: chainOf(on), address: contractAddress }],
        compiler: version,
        input: standardJsonText(simple(7), SETTINGS),
      });
      expect(right.body.contractVerificationResults.items[0]).toMatchObject({
        status: "FULLY_VERIFIED",
        creationMatch: "full",
      });
    }
  });
});
