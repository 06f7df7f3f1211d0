import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { counters, lineChart } from "../../src/explorer/stats-service/service.js";
import { automaticVerificationExtension } from "../../src/indexer/stages/auto-verify/extension.js";
import {
  createVerifiedContractLookup,
  getVerifiedContract,
  saveVerifiedContract,
} from "../../src/verifier/store/index.js";
import { rpc } from "../helpers/activity.js";
import { startVerifierEnv, type VerifierEnv } from "../helpers/verify.js";
import { build, deployData, standardJsonText, versionFor } from "../helpers/verify-contracts.js";

const TOKENISH = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Vault {
    address public immutable owner;
    uint256 public limit;
    constructor(uint256 l) { owner = msg.sender; limit = l; }
    function setLimit(uint256 l) external { require(msg.sender == owner, "owner"); limit = l; }
}
`;

describe("verified-contract store: no downgrade, automatic verification, search by bytecode", () => {
  let env: VerifierEnv;
  let chainId: string;
  let version: string;
  const settings = { optimizer: { enabled: true, runs: 200 }, metadata: { bytecodeHash: "ipfs" } };
  const sources = { "Vault.sol": TOKENISH };
  let built: Awaited<ReturnType<typeof build>>;
  let first: Hex;

  beforeAll(async () => {
    env = await startVerifierEnv();
    chainId = String(env.chain.anvil.chainId);
    version = versionFor(env.compilers, "0.8.26");
    built = await build(env.compilers, version, sources, settings);
    first = await env.deploy(deployData(built.Vault!, [1000n]));
    await env.sync();
  });
  afterAll(async () => {
    await env?.stop();
  });

  const verifyJson = (address: Hex, src: Record<string, string>) =>
    env.post("/api/v1/solidity/sources:verify-standard-json", {
      contracts: [{ chainId, address }],
      compiler: version,
      input: standardJsonText(src, settings),
    });

  it("stores a verification with everything the store promises", async () => {
    const [item] = (await verifyJson(first, sources)).body.contractVerificationResults.items;
    expect(item.status).toBe("FULLY_VERIFIED");
    const rec = await getVerifiedContract(env.db.db, chainId, first);
    expect(rec).toMatchObject({
      chainId,
      address: first.toLowerCase(),
      matchType: "full",
      creationMatch: "full",
      runtimeMatch: "full",
      automatic: false,
      language: "Solidity",
      compiler: "solc",
      compilerVersion: version,
      compilerSettings: settings,
      sources,
      fileName: "Vault.sol",
      contractName: "Vault",
    });
    expect(rec!.abi!.length).toBeGreaterThan(0);
    expect(rec!.constructorArguments).toBe(`0x${(1000).toString(16).padStart(64, "0")}`);
    expect(new Set(rec!.runtimeTransformations!.map((t) => t.reason))).toEqual(new Set(["immutable"]));
    expect(rec!.onchainRuntimeCode).toBe(await rpc(env.chain.anvil.url, "eth_getCode", [first, "latest"]));
    expect(rec!.verifiedAt).toBeInstanceOf(Date);
  });

  it("never downgrades a full match; re-verification is idempotent", async () => {
    // A comment changes the metadata hash only: these sources match partially.
    const edited = { "Vault.sol": `${TOKENISH}// edited\n` };
    const [item] = (await verifyJson(first, edited)).body.contractVerificationResults.items;
    // The status describes the sources sent; the message names the full match that stays.
    expect(item).toMatchObject({ status: "PARTIALLY_VERIFIED", matchType: "partial", alreadyVerified: true });
    expect(item.message).toMatch(/already fully verified as Vault\.sol:Vault/);
    expect(item).not.toHaveProperty("sent");
    const rec = await getVerifiedContract(env.db.db, chainId, first);
    expect(rec!.sources).toEqual(sources);
    const [again] = (await verifyJson(first, sources)).body.contractVerificationResults.items;
    expect(again.status).toBe("FULLY_VERIFIED");
    const [row] = await env.db.db.query<{ n: number }>("select count(*)::int as n from verified_contracts");
    expect(row!.n).toBe(1);
  });

  let second: Hex;
  it("a second deployment of the same code is verified automatically when indexed", async () => {
    // Another deployer: different immutable (owner) and constructor argument.
    const hash = await rpc<Hex>(env.chain.anvil.url, "eth_sendTransaction", [
      { from: env.chain.accounts[2]!.address, data: deployData(built.Vault!, [5n]) },
    ]);
    await rpc(env.chain.anvil.url, "evm_mine", []);
    const receipt = await rpc<{ contractAddress: Hex; blockNumber: Hex }>(
      env.chain.anvil.url,
      "eth_getTransactionReceipt",
      [hash],
    );
    second = receipt.contractAddress;
    await env.sync();
    const rec = await getVerifiedContract(env.db.db, chainId, second);
    expect(rec).toMatchObject({
      automatic: true,
      matchType: "full",
      contractName: "Vault",
      verifiedFrom: { chainId, address: first.toLowerCase() },
      blockNumber: Number(receipt.blockNumber),
      constructorArguments: `0x${(5).toString(16).padStart(64, "0")}`,
    });
    const lookup = createVerifiedContractLookup(env.db.db);
    const names = await lookup([first.toLowerCase() as Address, second.toLowerCase() as Address]);
    expect(names.get(second.toLowerCase() as Address)).toEqual({ name: "Vault" });
    expect(names.get(first.toLowerCase() as Address)).toEqual({ name: "Vault" });
    // The copy points at the first verification's compilation: sources and compiled code are stored once.
    const [counts] = await env.db.db.query<{ contracts: number; compilations: number }>(
      `select (select count(*)::int from verified_contracts) as contracts,
              (select count(*)::int from verified_compilations) as compilations`,
    );
    expect(counts).toEqual({ contracts: 2, compilations: 1 });
  });

  it("POST /api/v2/bytecodes/sources:search finds the source by deployed code and by creation input", async () => {
    const runtime = await rpc<Hex>(env.chain.anvil.url, "eth_getCode", [second, "latest"]);
    const byRuntime = await env.post("/api/v2/bytecodes/sources:search", {
      bytecode: runtime,
      bytecodeType: "DEPLOYED_BYTECODE",
    });
    expect(byRuntime.statusCode).toBe(200);
    expect(byRuntime.body.sources).toHaveLength(1);
    expect(byRuntime.body.sources[0]).toMatchObject({
      fileName: "Vault.sol",
      contractName: "Vault",
      compilerVersion: version,
      sourceType: "SOLIDITY",
      matchType: "FULL",
      sourceFiles: sources,
      isBlueprint: false,
    });
    expect(JSON.parse(byRuntime.body.sources[0].compilerSettings)).toEqual(settings);
    const byCreation = await env.post("/api/v2/bytecodes/sources:search", {
      bytecode: deployData(built.Vault!, [77n]),
      bytecodeType: "CREATION_INPUT",
    });
    expect(byCreation.body.sources).toHaveLength(1);
    expect(byCreation.body.sources[0].constructorArguments).toBe((77).toString(16).padStart(64, "0"));
    const none = await env.post("/api/v2/bytecodes/sources:search", {
      bytecode: "0x6080604052",
      bytecodeType: "DEPLOYED_BYTECODE",
    });
    expect(none.body).toEqual({ sources: [] });
    const bad = await env.post("/api/v2/bytecodes/sources:search", { bytecode: "0xzz", bytecodeType: "X" });
    expect(bad.statusCode).toBe(400);
  });

  it("a copy of a verified contract is verified from the store, without the compiler", async () => {
    // Same deployer and constructor argument as the first: the same creation input and runtime code.
    const third = await env.deploy(deployData(built.Vault!, [1000n]));
    await env.sync();
    const { compilations, cacheHits } = env.compilers.stats;
    const [item] = (await verifyJson(third, sources)).body.contractVerificationResults.items;
    expect(item).toMatchObject({ status: "FULLY_VERIFIED", contractName: "Vault", matchType: "full" });
    // A copy does not even ask the registry (no compile, no cache lookup): the answer is the store's.
    expect(env.compilers.stats).toMatchObject({ compilations, cacheHits });
    const rec = await getVerifiedContract(env.db.db, chainId, third);
    expect(rec).toMatchObject({ automatic: false, sources, contractName: "Vault" });
    // Edited sources are other inputs: the store has no compilation of them, so the compiler runs.
    const edited = { "Vault.sol": `${TOKENISH}// other inputs\n` };
    const [partial] = (await verifyJson(third, edited)).body.contractVerificationResults.items;
    expect(partial).toMatchObject({ status: "PARTIALLY_VERIFIED", alreadyVerified: true });
    expect(env.compilers.stats.compilations + env.compilers.stats.cacheHits).toBeGreaterThan(
      compilations + cacheHits,
    );
  });

  it("keeps large sources intact, compressed with lz4 where the server has it (pglz otherwise)", async () => {
    const rec = await getVerifiedContract(env.db.db, chainId, first);
    if (!rec) throw new Error("the first verification is not stored");
    // Sources well past the TOAST threshold (2 KB), so the server compresses them.
    const big = { ...rec.sources, "Notes.sol": `// ${"notes on the vault; ".repeat(2000)}\n` };
    const other = "0x00000000000000000000000000000000000000b1" as Hex;
    const { verifiedAt: _at, ...fields } = rec;
    await saveVerifiedContract(env.db.db, { ...fields, address: other, sources: big }, false);
    expect((await getVerifiedContract(env.db.db, chainId, other))?.sources).toEqual(big);
    const [server] = await env.db.db.query<{ lz4: boolean }>(
      `select exists (select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any(enumvals))
         as lz4`,
    );
    const [row] = await env.db.db.query<{ method: string | null }>(
      `select pg_column_compression(c.sources) as method from verified_contracts v
         join verified_compilations c on c.id = v.compilation_id where v.chain_id = $1 and v.address = $2`,
      [chainId, Buffer.from(other.slice(2), "hex")],
    );
    expect(row?.method).toBe(server?.lz4 ? "lz4" : "pglz");
  });

  it("a reorganisation below the creation removes the automatic copy", async () => {
    const rec = await getVerifiedContract(env.db.db, chainId, second);
    await env.db.db.transaction((tx) => automaticVerificationExtension().revert(tx, rec!.blockNumber! - 1));
    expect(await getVerifiedContract(env.db.db, chainId, second)).toBeNull();
    expect(await getVerifiedContract(env.db.db, chainId, first)).not.toBeNull();
  });

  it("keeps the verified contracts per day with the rows, however they were written (the stats service's charts)", async () => {
    const db = env.db.db;
    const kept = () =>
      db.query(
        "select chain_id::text, day::text, contracts::text from verified_contracts_daily order by 1, 2",
      );
    const recount = () =>
      db.query(
        `select chain_id::text, (verified_at at time zone 'UTC')::date::text as day, count(*)::text as contracts
         from verified_contracts group by 1, 2 order by 1, 2`,
      );
    // Verifications by request, by the indexer (and one taken back by a reorganisation), a direct save.
    expect(await kept()).toEqual(await recount());
    expect((await kept()).length).toBeGreaterThan(0);
    // A re-verification dated two days earlier moves its row to that day, before the chain's first block.
    await db.query(
      "update verified_contracts set verified_at = verified_at - interval '2 days' where chain_id = $1 and address = $2",
      [chainId, Buffer.from(first.slice(2), "hex")],
    );
    expect(await kept()).toEqual(await recount());
    const [total] = await db.query<{ n: string }>(
      "select count(*)::text as n from verified_contracts where chain_id = $1",
      [chainId],
    );
    const deps = { db, coinSymbol: "ETH" };
    const perDay = await lineChart(deps, "newVerifiedContracts", { resolution: "DAY" });
    expect(perDay!.chart.reduce((s, p) => s + Number(p.value), 0)).toBe(Number(total!.n));
    expect(perDay!.chart[0]!.value).toBe("1");
    const growth = await lineChart(deps, "verifiedContractsGrowth", { resolution: "MONTH" });
    expect(growth!.chart.at(-1)!.value).toBe(total!.n);
    const byId = new Map((await counters(deps)).counters.map((c) => [c.id, c.value]));
    expect(byId.get("totalVerifiedContracts")).toBe(total!.n);
    const [today] = await db.query<{ n: string }>(
      `select count(*)::text as n from verified_contracts
       where chain_id = $1 and (verified_at at time zone 'UTC')::date = $2::date`,
      [chainId, new Date().toISOString().slice(0, 10)],
    );
    expect(byId.get("lastNewVerifiedContracts")).toBe(today!.n);
  });
});
