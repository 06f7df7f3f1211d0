import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRpc } from "../src/chain/rpc.js";
import { type ChainConfig, withIndexedChain } from "../src/config/chains.js";
import { type App, buildApp } from "../src/http/app.js";
import type { Indexer } from "../src/indexer/runtime.js";
import type { VerifierChain } from "../src/verifier/chain-clients.js";
import type { CompilerRegistry } from "../src/verifier/compilers/index.js";
import { verify } from "../src/verifier/service/index.js";
import { rpc } from "./helpers/activity.js";
import { startTestChain, type TestChain } from "./helpers/anvil.js";
import { createTestDb, type TestDb } from "./helpers/db.js";
import { createTestIndexer, indexToHead } from "./helpers/indexer.js";
import {
  RecordedVyperCompiler,
  type VyperCase,
  vyperCases,
  withRecordedVyper,
} from "./helpers/recorded-vyper.js";
import { offlineVerifierCompilers } from "./helpers/verify.js";

const cases = vyperCases();
const byName = (n: string) => cases.find((c) => c.name.endsWith(n))!;

let chain: TestChain;
let db: TestDb;
let indexer: Indexer;
let registry: CompilerRegistry;
let app: App;
let chainId: string;
const stand = new RecordedVyperCompiler(cases.map((c) => c.recording));

async function deploy(data: string): Promise<Hex> {
  const hash = await rpc<Hex>(chain.anvil.url, "eth_sendTransaction", [
    { from: chain.accounts[0]!.address, data, gas: "0x1c9c380" },
  ]);
  let receipt: { contractAddress: Hex; status: Hex } | null = null;
  for (let i = 0; i < 100 && !receipt; i++) {
    receipt = await rpc(chain.anvil.url, "eth_getTransactionReceipt", [hash]);
    if (!receipt) await new Promise((r) => setTimeout(r, 20));
  }
  if (receipt?.status !== "0x1") throw new Error(`deployment ${hash} reverted or was not mined`);
  return receipt.contractAddress;
}

let setCodeCount = 0;
/** Runtime code without a creation transaction (a genesis-like contract): runtime-only verification. */
async function place(code: string): Promise<Hex> {
  const address = `0x${"cd".repeat(19)}${(++setCodeCount).toString(16).padStart(2, "0")}` as Hex;
  await rpc(chain.anvil.url, "anvil_setCode", [address, code]);
  return address;
}

async function post(url: string, body: unknown) {
  const r = await app.inject({ method: "POST", url, payload: body as object });
  return { statusCode: r.statusCode, body: r.json() };
}

const SJ = "/api/v1/vyper/sources:verify-standard-json";
const MP = "/api/v1/vyper/sources:verify-multi-part";

function request(c: VyperCase, endpoint: string, address: Hex, patch: Partial<Record<string, unknown>> = {}) {
  const contracts = [{ chainId, address }];
  return endpoint === SJ
    ? { contracts, compiler: c.version, input: JSON.stringify(c.standardJson), ...patch }
    : { contracts, compiler: c.version, ...c.multiPart, ...patch };
}

async function verifyOne(endpoint: string, body: unknown) {
  const r = await post(endpoint, body);
  expect(r.statusCode, JSON.stringify(r.body)).toBe(200);
  expect(Object.keys(r.body), JSON.stringify(r.body)).toEqual(["contractVerificationResults"]);
  return r.body.contractVerificationResults.items[0];
}

beforeAll(async () => {
  chain = await startTestChain();
  chainId = String(chain.anvil.chainId);
  db = await createTestDb();
  indexer = await createTestIndexer(db.db, chain.anvil.url);
  registry = await offlineVerifierCompilers();
  const compilers = withRecordedVyper(registry, stand);
  const configs: ChainConfig[] = withIndexedChain([], {
    id: chainId,
    name: "Local",
    rpcUrl: chain.anvil.url,
  });
  const chains = new Map<string, VerifierChain>(
    configs.map((c) => [
      c.id,
      { config: c, rpc: createRpc({ url: c.rpcUrl, batchSize: 10, timeoutMs: 10_000, retries: 2 }) },
    ]),
  );
  app = await buildApp({
    db: db.db,
    config: { bodyLimit: 16 * 1024 * 1024 },
    logger: false,
    verifier: { chains: configs, compilers, verify: (req) => verify({ chains, compilers, db: db.db }, req) },
  });
});

afterAll(async () => {
  await app?.close();
  await registry?.close();
  await db?.drop();
  await chain?.stop();
});

/** Vyper ≥ 0.4.1 (prereleases included) puts an integrity hash in the creation code's auxdata: a full match. */
const hasIntegrityHash = (c: VyperCase) => /^v?0\.4\.([1-9]|\d\d)/.test(c.version);
const strip = (h: string) => h.replace(/^0x/, "").toLowerCase();

/**
 * Fixtures whose creation transaction cannot succeed, so only their runtime code can be put on chain. erc20.json:
 * its constructor computes `_supply * 10 ** _decimals` with `_decimals = 122` from the recorded arguments, which
 * overflows and reverts (checked below, not assumed).
 */
const CREATION_REVERTS = new Set(["vyper-compiler-outputs/erc20.json"]);

/** The Arbitrage constructor calls approve() on these; on our chain they hold a stub that returns true. */
const ARBITRAGE_TOKENS = [
  "0xf71040d20cc3ffbb28c1abcef46134c7936624e0",
  "0x5e8422345238f34275888049021821e8e08caa1f",
  "0xac3e018457b222d93114458476f3e3416abbe38f",
];
const RETURN_TRUE = "0x600160005260206000f3";

describe("every Vyper fixture through both Vyper endpoints", () => {
  const addresses = new Map<string, Hex>();

  beforeAll(async () => {
    for (const t of ARBITRAGE_TOKENS) await rpc(chain.anvil.url, "anvil_setCode", [t, RETURN_TRUE]);
    for (const c of cases) {
      if (CREATION_REVERTS.has(c.name)) {
        await expect(deploy(c.creationInput!)).rejects.toThrow(/reverted/);
        addresses.set(c.name, await place(c.runtimeCode));
      } else {
        addresses.set(c.name, c.creationInput ? await deploy(c.creationInput) : await place(c.runtimeCode));
      }
    }
    await indexToHead(indexer, db.db, chain.anvil.url);
  });

  it("finds the 5 Verifier Alliance and 9 compiler-output fixtures", () => {
    expect(cases.filter((c) => c.name.startsWith("vyper/"))).toHaveLength(5);
    expect(cases.filter((c) => c.name.startsWith("vyper-compiler-outputs/"))).toHaveLength(9);
  });

  for (const c of cases) {
    for (const endpoint of [SJ, MP]) {
      const allowed = (endpoint === SJ ? c.standardJson : c.multiPart) !== null;
      it.runIf(allowed)(`${c.name} via ${endpoint.split(":")[1]}`, async () => {
        const address = addresses.get(c.name)!;
        const onchainRuntime = strip(await rpc<string>(chain.anvil.url, "eth_getCode", [address, "latest"]));
        const withCreation = !CREATION_REVERTS.has(c.name);
        const callsBefore = stand.calls.length;
        const item = await verifyOne(endpoint, request(c, endpoint, address));

        // The stand-in saw exactly the recorded compiler input of this fixture.
        expect(stand.calls.slice(callsBefore).map((x) => x.recording)).toEqual([c.name]);
        const full = withCreation && hasIntegrityHash(c);
        expect(item).toMatchObject({
          status: full ? "FULLY_VERIFIED" : "PARTIALLY_VERIFIED",
          chainId,
          address: address.toLowerCase(),
          contractName: c.contractName,
          fileName: c.fileName,
          matchType: full ? "full" : "partial",
          creationMatch: withCreation ? (full ? "full" : "partial") : null,
          // Vyper runtime code never carries a hash of the sources.
          runtimeMatch: "partial",
        });
        const t = item.transformations;
        if (c.expected) {
          expect(t.creation).toEqual(c.expected.creationTransformations);
          expect(t.creationValues).toEqual(c.expected.creationValues);
          expect(t.runtime).toEqual(c.expected.runtimeTransformations);
          expect(t.runtimeValues).toEqual(c.expected.runtimeValues);
        }
        // Constructor arguments: the bytes after the compiled creation code, decoded with the ABI.
        const creationLength = strip(c.compiledCreation).length / 2;
        if (withCreation && c.constructorArguments) {
          expect(item.constructorArguments.encoded).toBe(c.constructorArguments);
          expect(t.creation).toEqual([
            { type: "insert", reason: "constructorArguments", offset: creationLength },
          ]);
          expect(t.creationValues).toEqual({ constructorArguments: c.constructorArguments });
        } else {
          expect(item.constructorArguments).toBeNull();
          if (withCreation) expect(t.creation).toEqual([]);
        }
        // Immutables: whatever the deployment appended after the compiled runtime code (Vyper ≥ 0.3.10).
        const runtime = strip(c.compiledRuntime);
        if (c.isBlueprint) {
          // ERC-5202: on chain is the preamble and the init code, matched without transformations.
          expect(onchainRuntime).toBe(`fe7100${strip(c.compiledCreation)}`);
          expect(t.runtime).toEqual([]);
        } else if (onchainRuntime.length > runtime.length) {
          expect(onchainRuntime.startsWith(runtime)).toBe(true);
          expect(t.runtime).toEqual([
            { type: "insert", reason: "immutable", offset: runtime.length / 2, id: "0" },
          ]);
          expect(t.runtimeValues).toEqual({
            immutables: { "0": `0x${onchainRuntime.slice(runtime.length)}` },
          });
        } else {
          expect(t.runtime).toEqual([]);
        }
      });
    }
  }

  it("stored each fixture once as Vyper, with its sources, interfaces and blueprint flag", async () => {
    const rows = await db.db.query<{
      address: Uint8Array;
      language: string;
      compiler: string;
      compiler_version: string;
      sources: Record<string, string>;
      is_blueprint: boolean;
    }>("select address, language, compiler, compiler_version, sources, is_blueprint from verified_contracts");
    expect(rows).toHaveLength(cases.length);
    const byAddress = new Map(rows.map((r) => [`0x${Buffer.from(r.address).toString("hex")}`, r]));
    for (const c of cases) {
      const row = byAddress.get(addresses.get(c.name)!.toLowerCase())!;
      expect(row).toMatchObject({ language: "Vyper", compiler: "vyper", is_blueprint: c.isBlueprint });
      expect(row.sources).toHaveProperty([c.fileName]);
    }
    const arbitrage = byAddress.get(
      addresses.get("vyper-compiler-outputs/with_interfaces.json")!.toLowerCase(),
    )!;
    expect(Object.keys(arbitrage.sources).sort()).toEqual([
      "contracts/Arbitrage.vy",
      "interfaces/ContractTypes.json",
      "interfaces/ERC20.json",
      "interfaces/Router.vy",
    ]);
    expect(byAddress.get(addresses.get("vyper/auxdata-0.4.1.json")!.toLowerCase())!.compiler_version).toBe(
      "v0.4.1-b1+commit.039d3692",
    );
  });
});
