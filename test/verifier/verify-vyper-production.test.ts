/**
 * The production Vyper path: CompilerRegistry downloads a vyper executable from a (local) list, checks its sha256,
 * runs it natively with the standard JSON on stdin and parses its output; the verify service matches and stores.
 * The served executable replays one recorded output, and only for input that carries the verifier's selection.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../src/app/http-app.js";
import { type CompilerRegistry, createCompilers } from "../../src/verifier/compilers/index.js";
import { rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { type CompilerServer, startCompilerServer } from "../helpers/compiler-server.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { vyperCases } from "../helpers/recorded-vyper.js";
import { SHARED_FIXTURES_MISSING, sharedFixturesPresent } from "../helpers/shared-fixtures.js";
import { buildVerifierApp } from "../helpers/verify.js";

const fixture = vyperCases().find((c) => c.name === "vyper/auxdata-0.4.1.json")!;
const BINARY = "/vyper/releases/v0.4.1b1/vyper.0.4.1b1+commit.039d3692.linux";

/** A vyper stand-in executable: the recorded output for input asking for our outputs of test.vy, else an error. */
const fakeVyper = (output: unknown) => `#!/bin/sh
input=$(cat)
case "$input" in *'"evm.deployedBytecode"'*) ;; *) echo "unexpected input: $input" >&2; exit 3 ;; esac
case "$input" in *'"test.vy":["abi"'*) ;; *) echo "unexpected selection: $input" >&2; exit 3 ;; esac
cat <<'JSON'
${JSON.stringify(output)}
JSON
`;

let server: CompilerServer;
let dir: string;
let chain: TestChain;
let db: TestDb;
let compilers: CompilerRegistry;
let app: App;

beforeAll(async () => {
  server = await startCompilerServer();
  server.serveList("/vyper/vyper.list.json", [
    {
      longVersion: "0.4.1b1+commit.039d3692",
      path: `${server.url}${BINARY}`,
      body: Buffer.from(fakeVyper(fixture.recording.output)),
      vyperStyle: true,
    },
  ]);
  dir = await mkdtemp(join(tmpdir(), "lookout-vyper-prod-"));
  const silent = { info() {}, warn() {}, error() {}, debug() {} };
  compilers = createCompilers(
    {
      compilersDir: dir,
      solcListUrl: `${server.url}/none/list.json`,
      solcjsListUrl: `${server.url}/none/bin/list.json`,
      vyperListUrl: `${server.url}/vyper/vyper.list.json`,
      useInstalledSolcJs: false,
      listRefreshMs: 0,
      downloadAttempts: 1,
    },
    silent,
  );
  await compilers.ready();
  chain = await startTestChain();
  db = await createTestDb();
  app = await buildVerifierApp(db.db, chain, compilers, { bodyLimit: 2 * 1024 * 1024 });
});

afterAll(async () => {
  await app?.close();
  await compilers?.close();
  await db?.drop();
  await chain?.stop();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.runIf(process.platform === "linux" && process.arch === "x64" && sharedFixturesPresent)(
  sharedFixturesPresent
    ? "Vyper through CompilerRegistry"
    : `Vyper through CompilerRegistry (${SHARED_FIXTURES_MISSING})`,
  () => {
    it("lists the prerelease from the Vyper list, named as the list names it", async () => {
      const r = await app.inject({ url: "/api/v1/vyper/compilers" });
      expect(r.json()).toEqual({
        compilers: [
          {
            version: "v0.4.1b1+commit.039d3692",
            evmVersions: ["london", "paris", "shanghai", "cancun", "default"],
          },
        ],
      });
    });

    it("downloads the executable once, runs it and verifies a deployed fixture fully", async () => {
      const hash = await rpc<Hex>(chain.anvil.url, "eth_sendTransaction", [
        { from: chain.accounts[0]!.address, data: fixture.creationInput, gas: "0x1c9c380" },
      ]);
      let receipt: { contractAddress: Hex } | null = null;
      for (let i = 0; i < 100 && !receipt; i++) {
        receipt = await rpc(chain.anvil.url, "eth_getTransactionReceipt", [hash]);
        if (!receipt) await new Promise((r) => setTimeout(r, 20));
      }
      const indexer = await createTestIndexer(db.db, chain.anvil.url);
      await indexToHead(indexer, db.db, chain.anvil.url);
      const r = await app.inject({
        method: "POST",
        url: "/api/v1/vyper/sources:verify-multi-part",
        payload: {
          contracts: [{ chainId: chain.anvil.chainId, address: receipt!.contractAddress }],
          compiler: "0.4.1b1",
          ...fixture.multiPart,
        },
      });
      expect(r.statusCode).toBe(200);
      expect(r.json().contractVerificationResults.items[0]).toMatchObject({
        status: "FULLY_VERIFIED",
        contractName: "test",
        creationMatch: "full",
        runtimeMatch: "partial",
      });
      expect(server.hits(BINARY)).toBe(1);
      expect(compilers.downloads).toBe(1);
      expect(compilers.stats.compilations).toBe(1);
    });

    it("an input the executable refuses comes back as an error, never as a match", async () => {
      const out = compilers.compile({
        language: "Vyper",
        version: "0.4.1b1",
        input: { language: "Vyper", sources: { "x.vy": { content: "x: uint256" } }, settings: {} },
      });
      await expect(out).rejects.toThrow();
    });
  },
);
