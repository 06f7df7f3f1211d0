import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_SOLIDITY_EVM_VERSIONS } from "./evm-versions.js";
import { type CompilerOutput, type CompilerRegistry, createCompilers } from "./index.js";

const quiet = { info: () => {}, warn: () => {}, error: console.error, debug: () => {} };
const unreachable = "http://127.0.0.1:9/list.json";

/** The solc-js versions installed as npm aliases (package.json), with a contract each can compile. */
const INSTALLED: Array<[version: string, source: string]> = [
  [
    "0.4.26+commit.4563c3fc",
    "pragma solidity ^0.4.24; contract C { uint x; function set(uint v) public { x = v; } }",
  ],
  [
    "0.5.17+commit.d19bba13",
    "pragma solidity ^0.5.0; contract C { uint x; function set(uint v) external { x = v; } }",
  ],
  [
    "0.6.12+commit.27d51765",
    "pragma solidity ^0.6.0; abstract contract B { function f() public virtual returns (uint); } contract C is B { function f() public override returns (uint) { return 1; } }",
  ],
  [
    "0.7.6+commit.7338295f",
    "pragma solidity ^0.7.0; contract C { event E(uint); function f() external { emit E(address(this).balance); } }",
  ],
  [
    "0.8.18+commit.87f61d96",
    "pragma solidity ^0.8.0; contract C { error Bad(); function f(uint a) external pure returns (uint) { if (a == 0) revert Bad(); return a; } }",
  ],
  [
    "0.8.24+commit.e11b9ed9",
    "pragma solidity ^0.8.24; contract C { function f(uint a) external pure returns (uint) { unchecked { return a + 1; } } }",
  ],
  [
    "0.8.26+commit.8a97fa7a",
    "pragma solidity ^0.8.26; contract C { function f(uint a) external pure returns (uint) { return a << 2; } }",
  ],
  [
    "0.8.37+commit.f401782d",
    "pragma solidity ^0.8.0; contract C { uint public x; constructor(uint v) { x = v; } }",
  ],
];

const input = (content: string, settings: Record<string, unknown> = {}) => ({
  language: "Solidity",
  sources: { "C.sol": { content } },
  settings: { outputSelection: { "*": { "*": ["evm.bytecode.object"] } }, ...settings },
});

const errorsOf = (out: CompilerOutput) => (out.errors ?? []).filter((e) => e.severity === "error");

let dir: string;
let compilers: CompilerRegistry;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lookout-solcjs-"));
  compilers = createCompilers(
    {
      compilersDir: dir,
      solcListUrl: unreachable,
      solcjsListUrl: unreachable,
      vyperListUrl: unreachable,
      concurrency: 2,
    },
    quiet,
  );
  await compilers.ready();
});

afterAll(async () => {
  await compilers.close();
  await rm(dir, { recursive: true, force: true });
});

describe("installed solc-js versions", () => {
  it("are listed newest first, offline", () => {
    const listed = compilers.listSolidity().map((c) => c.version);
    expect(listed).toEqual(INSTALLED.map(([v]) => `v${v}`).reverse());
  });

  it.each(INSTALLED)(
    "%s compiles a contract, and accepts exactly the EVM versions of the table",
    async (version, source) => {
      const out = await compilers.compile({ language: "Solidity", version, input: input(source) });
      expect(errorsOf(out)).toEqual([]);
      const c = out.contracts?.["C.sol"]?.C as { evm: { bytecode: { object: string } } } | undefined;
      const bytecode = c?.evm.bytecode.object ?? "";
      expect(bytecode.length).toBeGreaterThan(10);

      const accepted: string[] = [];
      for (const evm of [...ALL_SOLIDITY_EVM_VERSIONS, "amsterdam"]) {
        const probe = await compilers.compile({
          language: "Solidity",
          version,
          input: input("contract P {}", { evmVersion: evm, outputSelection: {} }),
        });
        if (!errorsOf(probe).some((e) => /evm version/i.test(e.message))) accepted.push(evm);
      }
      expect([...accepted, "default"]).toEqual(compilers.evmVersions("Solidity", version));
    },
  );

  it("never compiles the same input twice (key order does not matter)", async () => {
    const before = { ...compilers.stats };
    const a = input("pragma solidity ^0.8.0; contract Same {}");
    const b = { settings: a.settings, sources: a.sources, language: "Solidity" };
    const first = await compilers.compile({
      language: "Solidity",
      version: "v0.8.37+commit.f401782d",
      input: a,
    });
    const second = await compilers.compile({ language: "Solidity", version: "0.8.37+commit.f401", input: b });
    expect(second).toEqual(first);
    expect(compilers.stats.compilations - before.compilations).toBe(1);
    expect(compilers.stats.cacheHits - before.cacheHits).toBe(1);
  });

  it("says when a compile is handed to its worker, before it ends; and at once for a cached or refused one", async () => {
    // Made ready once (a compiler not ready yet says so at once: it may have a download ahead).
    await compilers.compile({
      language: "Solidity",
      version: "0.8.26+commit.8a97fa7a",
      input: input("contract W {}"),
    });
    const events: string[] = [];
    const source = `pragma solidity ^0.8.0; contract Handed${Date.now()} { function f() external {} }`;
    const before = compilers.stats.compilations;
    let runsAtStart = -1;
    const done = compilers
      .compile({
        language: "Solidity",
        version: "0.8.26+commit.8a97fa7a",
        input: input(source),
        onStarted: () => {
          if (runsAtStart < 0) runsAtStart = compilers.stats.compilations - before;
          events.push("started");
        },
      })
      .then((out) => {
        events.push("done");
        return out;
      });
    await done;
    // Handed over (the run counted) while the compile was still running.
    expect(events[0]).toBe("started");
    expect(events).toContain("done");
    expect(runsAtStart).toBe(1);

    let cached = 0;
    await compilers.compile({
      language: "Solidity",
      version: "0.8.26+commit.8a97fa7a",
      input: input(source),
      onStarted: () => cached++,
    });
    expect(cached).toBeGreaterThan(0);
    expect(compilers.stats.compilations - before).toBe(1);

    let refused = 0;
    await expect(
      compilers.compile({
        language: "Solidity",
        version: "0.8.25+commit.b61c2a91",
        input: input(source),
        onStarted: () => refused++,
      }),
    ).rejects.toMatchObject({ name: "InvalidInputError" });
    expect(refused).toBeGreaterThan(0);
  });

  it("keeps the event loop responsive while an old and a new version compile at once", async () => {
    // A contract with enough functions to keep each compiler busy for a while.
    const fns = (n: number) =>
      Array.from(
        { length: n },
        (_, i) =>
          `function f${i}(uint a, uint b) public pure returns (uint) { return a * ${i + 1} + b / ${i + 2}; }`,
      ).join("\n");
    const salt = Date.now();
    let maxLag = 0;
    let ticks = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      maxLag = Math.max(maxLag, now - last - 10);
      last = now;
      ticks++;
    }, 10);
    const started = performance.now();
    const [old, recent] = await Promise.all([
      compilers.compile({
        language: "Solidity",
        version: "0.4.26+commit.4563c3fc",
        input: input(`// ${salt}\npragma solidity ^0.4.24; contract Big { ${fns(150)} }`, {
          optimizer: { enabled: true, runs: 200 },
        }),
      }),
      compilers.compile({
        language: "Solidity",
        version: "0.8.37+commit.f401782d",
        input: input(`// ${salt}\npragma solidity ^0.8.0; contract Big { ${fns(150)} }`, {
          optimizer: { enabled: true, runs: 200 },
        }),
      }),
    ]);
    clearInterval(timer);
    const elapsed = performance.now() - started;
    expect(errorsOf(old)).toEqual([]);
    expect(errorsOf(recent)).toEqual([]);
    // Reported, not asserted: the machine is shared.
    console.info(
      `concurrent solc-js 0.4.26 + 0.8.37: ${elapsed.toFixed(0)} ms; event loop: ${ticks} ticks of 10 ms, max lag ${maxLag.toFixed(1)} ms`,
    );
    expect(ticks).toBeGreaterThan(0);
  });

  it.each(["0.4.26+commit.4563c3fc", "0.8.37+commit.f401782d"])(
    "%s: no input can read the server's files",
    async (version) => {
      const pragma = version.startsWith("0.4") ? "pragma solidity ^0.4.24;" : "pragma solidity ^0.8.0;";
      const attempts: Array<Record<string, unknown>> = [
        { "C.sol": { urls: ["/etc/passwd"] } },
        { "C.sol": { urls: ["file:///etc/passwd"] } },
        { "C.sol": { content: `${pragma} import "../../../../etc/passwd"; contract C {}` } },
        { "C.sol": { content: `${pragma} import "/etc/passwd"; contract C {}` } },
        { "C.sol": { content: `${pragma} import {X} from "file:///etc/passwd"; contract C {}` } },
        { "sub/C.sol": { content: `${pragma} import "./../../../../../etc/passwd"; contract C {}` } },
      ];
      for (const sources of attempts) {
        const out = await compilers.compile({
          language: "Solidity",
          version,
          input: {
            language: "Solidity",
            sources,
            settings: { outputSelection: { "*": { "*": ["*"], "": ["ast"] } } },
          },
        });
        expect(errorsOf(out).length, JSON.stringify(sources)).toBeGreaterThan(0);
        expect(JSON.stringify(out)).not.toMatch(/root:|nologin|\/bin\/(ba)?sh/);
      }
    },
  );

  it("rejects unknown versions with InvalidInputError", async () => {
    await expect(
      compilers.compile({
        language: "Solidity",
        version: "0.8.25+commit.b61c2a91",
        input: input("contract X {}"),
      }),
    ).rejects.toMatchObject({ name: "InvalidInputError" });
    expect(() => compilers.evmVersions("Solidity", "0.9.0")).toThrow(/Unknown Solidity compiler version/);
  });
});
