import type { Socket } from "phoenix";
import { getContractAddress, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpc, waitForReceipt } from "../helpers/activity.js";
import { collect, join, phoenixSocket } from "../helpers/live.js";
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
const OTHER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Counter {
    uint256 public count;
    function increment() external { count += 1; }
}
`;
const settings = { optimizer: { enabled: false, runs: 200 } };

// Members of the frontend's types (v2.0.3 types/api/contracts.ts and contract.ts) every answer must carry.
const VERIFIED_CONTRACT_KEYS = [
  "address",
  "coin_balance",
  "compiler_version",
  "language",
  "has_constructor_args",
  "optimization_enabled",
  "transactions_count",
  "verified_at",
  "market_cap",
  "license_type",
  // Blockscout's own member (smart_contract_view.ex prepare_smart_contract_address_for_list).
  "reputation",
];
const COUNTER_KEYS = [
  "new_smart_contracts_24h",
  "new_verified_smart_contracts_24h",
  "smart_contracts",
  "verified_smart_contracts",
];
const SMART_CONTRACT_KEYS = [
  "deployed_bytecode",
  "creation_bytecode",
  "is_self_destructed",
  "abi",
  "compiler_version",
  "evm_version",
  "optimization_enabled",
  "optimization_runs",
  "name",
  "verified_at",
  "is_blueprint",
  "is_verified",
  "is_verified_via_eth_bytecode_db",
  "is_changed_bytecode",
  "is_verified_via_sourcify",
  "is_fully_verified",
  "is_partially_verified",
  "sourcify_repo_url",
  "source_code",
  "constructor_args",
  "decoded_constructor_args",
  "can_be_visualized_via_sol2uml",
  "file_path",
  "additional_sources",
  "external_libraries",
  "compiler_settings",
  "verified_twin_address_hash",
  "language",
  "license_type",
];

describe("contracts: list, counters, the smart-contract object", () => {
  let env: VerifyFormEnv;
  let greeter: Hex;
  let greeterCreation: Hex;
  let counter: Hex;
  let unverified: Hex;
  const sockets: Socket[] = [];

  const get = async (path: string) => {
    const r = await fetch(`${env.base}${path}`);
    return { status: r.status, body: (await r.json()) as any };
  };

  async function verifyFlattened(address: Hex, source: string, name: string, license: string) {
    const socket = phoenixSocket(env.base);
    sockets.push(socket);
    const results = collect(await join(socket, `addresses:${address.toLowerCase()}`), "verification_result");
    const version = versionFor(env.compilers, "0.8.26");
    const r = await fetch(`${env.base}/api/v2/smart-contracts/${address}/verification/via/flattened-code`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        compiler_version: version,
        source_code: source,
        contract_name: name,
        is_optimization_enabled: false,
        license_type: license,
      }),
    });
    expect(r.status).toBe(200);
    expect(await results.next(() => true, 120_000)).toEqual({ status: "success" });
  }

  beforeAll(async () => {
    env = await startVerifyFormEnv();
    const version = versionFor(env.compilers, "0.8.26");
    const g = await build(env.compilers, version, { "Greeter.sol": SOURCE }, settings);
    const c = await build(env.compilers, version, { "Counter.sol": OTHER }, settings);
    greeterCreation = deployData(g.Greeter!, ["a copy"]);
    greeter = await env.deploy(deployData(g.Greeter!, ["hi"]));
    counter = await env.deploy(deployData(c.Counter!));
    unverified = await env.deploy(deployData(g.Greeter!, ["not verified"]));
    // Two calls of increment(): the counter contract's transactions (its creation is not one, as Blockscout counts).
    for (let i = 0; i < 2; i++) {
      const from = env.chain.accounts[0]!.address;
      const hash = await rpc<Hex>(env.chain.anvil.url, "eth_sendTransaction", [
        { from, to: counter, data: "0xd09de08a" },
      ]);
      await waitForReceipt(env.chain.anvil.url, hash);
    }
    await env.sync();
    await verifyFlattened(greeter, SOURCE, "Greeter", "mit");
    await verifyFlattened(counter, OTHER, "Counter", "apache_2_0");
  }, 240_000);
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await env?.stop();
  });

  it("lists verified contracts newest first, with the frontend's members, filtered by language and q", async () => {
    const all = await get("/api/v2/smart-contracts");
    expect(all.status).toBe(200);
    expect(all.body.items.map((i: any) => i.address.hash.toLowerCase())).toEqual([counter, greeter]);
    for (const item of all.body.items) for (const k of VERIFIED_CONTRACT_KEYS) expect(item).toHaveProperty(k);
    expect(all.body.next_page_params).toBeNull();
    const balance = BigInt(await rpc<Hex>(env.chain.anvil.url, "eth_getBalance", [greeter, "latest"]));
    expect(all.body.items[1]).toMatchObject({
      language: "solidity",
      license_type: "mit",
      has_constructor_args: true,
      optimization_enabled: false,
      coin_balance: balance.toString(),
    });
    expect(all.body.items[0]).toMatchObject({
      has_constructor_args: false,
      license_type: "apache_2_0",
      reputation: "ok",
    });
    // transactions_count: the indexer's per-address counter, as /addresses/{h}/counters tells it: for a contract
    // Blockscout counts the transactions to it (the two calls), not its creation.
    const counters = await get(`/api/v2/addresses/${counter}/counters`);
    expect(all.body.items[0].transactions_count).toBe(Number(counters.body.transactions_count));
    expect(all.body.items[0].transactions_count).toBe(2);
    expect((await get("/api/v2/smart-contracts?filter=vyper")).body.items).toEqual([]);
    expect((await get("/api/v2/smart-contracts?filter=solidity")).body.items).toHaveLength(2);
    const q = await get("/api/v2/smart-contracts?q=greet");
    expect(q.body.items.map((i: any) => i.address.hash.toLowerCase())).toEqual([greeter]);
    const byAddress = await get(`/api/v2/smart-contracts?q=${counter}`);
    expect(byAddress.body.items).toHaveLength(1);
    const page2 = await get(`/api/v2/smart-contracts?smart_contract_id=${2 ** 40}&items_count=50`);
    expect(page2.body.items).toHaveLength(2);
    expect((await get("/api/v2/smart-contracts?filter=cobol")).status).toBe(422);
  });

  it("counts contracts and verified contracts (totals kept by the database as rows come and go)", async () => {
    const r = await get("/api/v2/smart-contracts/counters");
    expect(r.status).toBe(200);
    for (const k of COUNTER_KEYS) expect(typeof r.body[k]).toBe("string");
    const [row] = await env.db.db.query<{ n: number }>("select count(*)::int8 as n from contract_creations");
    expect(r.body).toEqual({
      smart_contracts: String(row!.n),
      verified_smart_contracts: "2",
      new_smart_contracts_24h: String(row!.n),
      new_verified_smart_contracts_24h: "2",
    });
    expect(row!.n).toBeGreaterThanOrEqual(3);
  });

  it("serves the full smart-contract object", async () => {
    const r = await get(`/api/v2/smart-contracts/${greeter}`);
    expect(r.status).toBe(200);
    for (const k of SMART_CONTRACT_KEYS) expect(r.body).toHaveProperty(k);
    expect(r.body).toMatchObject({
      is_verified: true,
      license_type: "mit",
      certified: false,
      is_verified_via_verifier_alliance: false,
      proxy_type: null,
      implementations: [],
      conflicting_implementations: null,
      creation_status: "success",
      has_methods_read: true,
      has_methods_write: false,
      decoded_constructor_args: [["hi", { internalType: "string", name: "g", type: "string" }]],
      compiler_settings: { optimizer: { enabled: false, runs: 200 } },
      // No sol2uml service: Blockscout says false then.
      can_be_visualized_via_sol2uml: false,
      is_self_destructed: false,
    });
    expect((await get(`/api/v2/smart-contracts/${counter}`)).body).toMatchObject({
      has_methods_read: true,
      has_methods_write: true,
    });
    const u = await get(`/api/v2/smart-contracts/${unverified}`);
    expect(u.body).toMatchObject({ is_verified: false, creation_status: "success", license_type: null });
  });

  it("tells a watched address that the indexer verified its new contract automatically", async () => {
    const from = env.chain.accounts[0]!.address;
    const nonce = await rpc<Hex>(env.chain.anvil.url, "eth_getTransactionCount", [from, "pending"]);
    const next = getContractAddress({ from, nonce: BigInt(nonce) }).toLowerCase();
    const socket = phoenixSocket(env.base);
    sockets.push(socket);
    const verified = collect(await join(socket, `addresses:${next}`), "smart_contract_was_verified");
    expect((await env.deploy(greeterCreation)).toLowerCase()).toBe(next);
    await env.sync();
    expect(await verified.next()).toEqual({});
    expect((await get(`/api/v2/addresses/${next}`)).body.is_verified).toBe(true);
  });
});
