import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type CompilerRegistry, createCompilers } from "./index.js";
import { SolcJsPool } from "./solcjs-pool.js";

/**
 * solc answering "Error parsing input JSON." to JSON the registry serialised is a broken compiler, not a result:
 * after one 4 MB verification a soljson worker answered it to that request and to every later one, and the
 * registry cached each answer on disk, so those inputs kept failing after a restart (issue 36's follow-up).
 */
const soljson = createRequire(import.meta.url).resolve("solc/soljson.js");
const unreachable = "http://127.0.0.1:9/list.json";
const UNREAD = {
  errors: [
    {
      component: "general",
      formattedMessage: "Error parsing input JSON.",
      message: "Error parsing input JSON.",
    },
  ].map((e) => ({ ...e, severity: "error", type: "JSONError" })),
};
const source = (name: string) => ({
  language: "Solidity",
  sources: { "C.sol": { content: `pragma solidity ^0.8.0; contract ${name} { uint public x; }` } },
  settings: { outputSelection: { "*": { "*": ["evm.bytecode.object"] } } },
});

describe("a compiler that cannot read its input", () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });
  /** One worker of `memoryLimitMb`, its warnings' messages collected in `warnings`, closed after the file. */
  const onePool = (memoryLimitMb: number, warnings: string[]) => {
    const pool = new SolcJsPool({
      size: 1,
      maxLoadedPerWorker: 1,
      timeoutMs: 120_000,
      memoryLimitMb,
      logger: {
        info() {},
        warn: (_o: unknown, m?: string) => warnings.push(String(m)),
        error() {},
        debug() {},
      },
    });
    cleanup.push(() => pool.close());
    return pool;
  };

  it("a soljson that cannot allocate for its input is out of memory; the worker is replaced and the next compile works", async () => {
    const warnings: string[] = [];
    // 40 MB: small contracts compile in it; reading a 4 MB input does not fit, and solc answers its catch-all
    // "Error parsing input JSON." (kept, that worker answered it to every later input too).
    const pool = onePool(40, warnings);
    const compiled = async (name: string) =>
      Object.keys(
        (
          JSON.parse(await pool.compile(soljson, [JSON.stringify(source(name))])) as {
            contracts?: Record<string, Record<string, unknown>>;
          }
        ).contracts?.["C.sol"] ?? {},
      );
    expect(await compiled("Before")).toEqual(["Before"]);
    const big = source("Big");
    big.sources["C.sol"].content = `// ${"x".repeat(4 * 1024 * 1024)}\n${big.sources["C.sol"].content}`;
    const err = await pool.compile(soljson, [JSON.stringify(big)]).then(
      (out) => out.slice(0, 200),
      (e: unknown) => e,
    );
    expect(err).toMatchObject({
      kind: "memory",
      details: expect.stringContaining("could not read its input"),
    });
    expect(warnings).toEqual(["solc-js worker replaced"]);
    expect(await compiled("After")).toEqual(["After"]);
  });

  it("a syntax error in the input stays solc's answer (only the catch-all answer means a broken compiler)", async () => {
    const warnings: string[] = [];
    const pool = onePool(4096, warnings);
    const bad = JSON.parse(await pool.compile(soljson, ["{not json"])) as {
      errors: Array<{ message: string }>;
    };
    expect(bad.errors[0]?.message).toMatch(/^parse error at line 1/);
    const out = JSON.parse(await pool.compile(soljson, [JSON.stringify(source("Fine"))])) as {
      contracts?: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(out.contracts?.["C.sol"] ?? {})).toEqual(["Fine"]);
    expect(warnings).toEqual([]);
  });

  it("a cached 'Error parsing input JSON.' answer is compiled again, not served", async () => {
    const dir = await mkdtemp(join(tmpdir(), "lookout-unread-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const make = async () => {
      const c = createCompilers(
        {
          compilersDir: dir,
          solcListUrl: unreachable,
          solcjsListUrl: unreachable,
          vyperListUrl: unreachable,
        },
        { info() {}, warn() {}, error() {}, debug() {} },
      );
      cleanup.push(() => c.close());
      await c.ready();
      return c;
    };
    const req = { language: "Solidity" as const, version: "v0.8.37+commit.f401782d", input: source("Again") };
    const first: CompilerRegistry = await make();
    expect((await first.compile(req)).contracts?.["C.sol"]).toHaveProperty("Again");
    // Let the disk tier's write land, then make every cached entry the broken compiler's answer.
    const cacheDir = join(dir, "cache");
    const cached = async () =>
      (await readdir(cacheDir, { recursive: true }).catch(() => [] as string[])).filter((f) =>
        f.endsWith(".json"),
      );
    let files: string[] = [];
    for (let i = 0; i < 400 && files.length === 0; i++) {
      files = await cached();
      if (!files.length) await new Promise((r) => setTimeout(r, 50));
    }
    expect(files.length).toBe(1);
    for (const f of files) await writeFile(join(cacheDir, f), JSON.stringify(UNREAD));
    const second = await make();
    const out = await second.compile(req);
    expect(out.errors ?? []).not.toContainEqual(expect.objectContaining({ type: "JSONError" }));
    expect(out.contracts?.["C.sol"]).toHaveProperty("Again");
    expect(second.stats.compilations).toBe(1);
  });

  it("a failed compile is not written to the disk cache (its errors quote the source); a good one is", async () => {
    const dir = await mkdtemp(join(tmpdir(), "lookout-failed-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const c = createCompilers(
      { compilersDir: dir, solcListUrl: unreachable, solcjsListUrl: unreachable, vyperListUrl: unreachable },
      { info() {}, warn() {}, error() {}, debug() {} },
    );
    cleanup.push(() => c.close());
    await c.ready();
    const padded = {
      ...source("Bad"),
      sources: {
        "C.sol": { content: `pragma solidity ^0.8.0; contract Bad { uint x = "${"y".repeat(100_000)}"; }` },
      },
    };
    const req = (input: ReturnType<typeof source>) => ({
      language: "Solidity" as const,
      version: "v0.8.37+commit.f401782d",
      input,
    });
    const bad = await c.compile(req(padded));
    expect(
      bad.errors?.some((e) => e.severity === "error" && (e.formattedMessage ?? "").length > 100_000),
    ).toBe(true);
    // The same failure again in this process: from memory, not compiled twice.
    await c.compile(req(padded));
    expect(c.stats).toMatchObject({ compilations: 1, cacheHits: 1 });
    await c.compile(req(source("Good")));
    const cacheDir = join(dir, "cache");
    const files = async () =>
      (await readdir(cacheDir, { recursive: true }).catch(() => [] as string[])).filter((f) =>
        f.endsWith(".json"),
      );
    for (let i = 0; i < 400 && (await files()).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await files()).toHaveLength(1);
  });
});
