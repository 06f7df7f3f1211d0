import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CompilerServer, startCompilerServer } from "../../../test/helpers/compiler-server.js";
import {
  CompilerError,
  type CompilerOutput,
  type CompilerRegistry,
  type CompilersConfig,
  createCompilers,
} from "./index.js";

const require = createRequire(import.meta.url);
const soljson = (pkg: string) =>
  readFile(join(dirname(require.resolve(`${pkg}/package.json`)), "soljson.js"));

/** Stands in for a native solc: speaks --standard-json on stdin/stdout and reports how it was run. */
const FAKE_SOLC = `#!/bin/sh
input=$(cat)
case "$input" in
  *HANG*) sleep 60 & wait ;;
  *CRASH*) echo "boom: internal compiler error" >&2; exit 3 ;;
  *READ_PASSWD*)
    # A compiler that read a file outside the input and quotes it in its error.
    printf '{"sources":{"/etc/passwd":{"id":1}},"errors":[{"severity":"error","type":"ParserError","message":"%s","sourceLocation":{"file":"/etc/passwd","start":0,"end":4}}]}' "$(head -c 24 /etc/passwd | tr -d '"\\\\\\n')"
    exit 0 ;;
esac
printf '{"sources":{"C.sol":{"id":0}},"contracts":{"C.sol":{}},"fake":{"args":"%s","cwd":"%s","cwdEntries":"%s","asLimitKb":"%s"}}' "$*" "$(pwd)" "$(ls -A | wc -l | tr -d ' ')" "$(ulimit -v)"
`;

const FAKE_VYPER = `#!/bin/sh
cat > /dev/null
printf '{"compiler":"vyper-0.4.99","contracts":{"C.vy":{"C":{"abi":[]}}},"sources":{"C.vy":{"id":0}},"fake":{"args":"%s"}}' "$*"
`;

const solInput = (content: string) => ({
  language: "Solidity",
  sources: { "C.sol": { content } },
  settings: { outputSelection: { "*": { "*": ["evm.bytecode.object"] } } },
});
const errorsOf = (out: CompilerOutput) => (out.errors ?? []).filter((e) => e.severity === "error");
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

let server: CompilerServer;
let dir: string;
let compilers: CompilerRegistry;
let soljson0826: Buffer;
const warnings: string[] = [];
const logger = {
  info: () => {},
  debug: () => {},
  error: () => {},
  warn: (o: unknown, msg?: string) => warnings.push(`${msg ?? ""} ${JSON.stringify(o)}`),
};
const MEMORY_MB = 3000;

function config(extra: Partial<CompilersConfig> = {}): CompilersConfig {
  return {
    compilersDir: dir,
    solcListUrl: `${server.url}/linux-amd64/list.json`,
    solcjsListUrl: `${server.url}/bin/list.json`,
    vyperListUrl: `${server.url}/vyper/vyper.list.json`,
    useInstalledSolcJs: false,
    concurrency: 2,
    timeoutMs: 60_000,
    memoryLimitMb: MEMORY_MB,
    downloadAttempts: 2,
    downloadBackoffMs: 20,
    listRefreshMs: 0,
    ...extra,
  };
}

beforeAll(async () => {
  server = await startCompilerServer();
  dir = await mkdtemp(join(tmpdir(), "lookout-download-"));
  soljson0826 = await soljson("solc-0.8.26");
  server.serveList("/bin/list.json", [
    { longVersion: "0.8.26+commit.8a97fa7a", path: "soljson-v0.8.26+commit.8a97fa7a.js", body: soljson0826 },
    // Old list entries carry only keccak256.
    {
      longVersion: "0.6.12+commit.27d51765",
      path: "soljson-v0.6.12+commit.27d51765.js",
      body: await soljson("solc-0.6.12"),
      omitSha256: true,
    },
    {
      longVersion: "0.8.18+commit.87f61d96",
      path: "soljson-bad.js",
      body: Buffer.from("x"),
      sha256: "00".repeat(32),
    },
    { longVersion: "0.7.6+commit.7338295f", path: "soljson-cut.js", body: await soljson("solc-0.7.6") },
  ]);
  // The connection drops halfway through this file, every time.
  server.serve("/bin/soljson-cut.js", { body: await soljson("solc-0.7.6"), cutAfterBytes: 1_000_000 });
  server.serveList("/linux-amd64/list.json", [
    {
      longVersion: "0.8.99+commit.0badf00d",
      path: "solc-linux-amd64-v0.8.99+commit.0badf00d",
      body: Buffer.from(FAKE_SOLC),
    },
  ]);
  server.serveList("/vyper/vyper.list.json", [
    {
      longVersion: "0.4.99+commit.c0ffee00",
      path: `${server.url}/releases/download/v0.4.99/vyper.0.4.99%2Bcommit.c0ffee00.linux`,
      body: Buffer.from(FAKE_VYPER),
      vyperStyle: true,
    },
  ]);
  compilers = createCompilers(config(), logger);
  await compilers.ready();
});

afterAll(async () => {
  await compilers?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("lists", () => {
  it("merges native, solc-js and Vyper lists, paths resolved against the list URL", () => {
    expect(compilers.listSolidity().map((c) => c.version)).toEqual([
      "v0.8.99+commit.0badf00d",
      "v0.8.26+commit.8a97fa7a",
      "v0.8.18+commit.87f61d96",
      "v0.7.6+commit.7338295f",
      "v0.6.12+commit.27d51765",
    ]);
    expect(compilers.listVyper()).toEqual([
      {
        version: "v0.4.99+commit.c0ffee00",
        evmVersions: ["london", "paris", "shanghai", "cancun", "prague", "osaka", "default"],
      },
    ]);
  });
});

describe("solc-js downloads", () => {
  it("downloads on first use, verifies the checksum and compiles", async () => {
    const out = await compilers.compile({
      language: "Solidity",
      version: "0.8.26+commit.8a97fa7a",
      input: solInput("pragma solidity ^0.8.0; contract C {}"),
    });
    expect(errorsOf(out)).toEqual([]);
    expect(server.hits("/bin/soljson-v0.8.26+commit.8a97fa7a.js")).toBe(1);
    const cached = join(dir, "solcjs", "0.8.26+commit.8a97fa7a", "soljson.js");
    expect(sha256(await readFile(cached))).toBe(sha256(soljson0826));
  });

  it("ten concurrent first uses cause one download (keccak256-only list entry)", async () => {
    const outs = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        compilers.compile({
          language: "Solidity",
          version: "0.6.12+commit.27d5",
          input: solInput(`pragma solidity ^0.6.0; contract C${i} {}`),
        }),
      ),
    );
    for (const out of outs) expect(errorsOf(out)).toEqual([]);
    expect(server.hits("/bin/soljson-v0.6.12+commit.27d51765.js")).toBe(1);
  });

  it("rejects a file whose checksum does not match the list", async () => {
    const err = await compilers
      .compile({ language: "Solidity", version: "0.8.18+commit.87f61d96", input: solInput("contract C {}") })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CompilerError);
    expect((err as CompilerError).kind).toBe("checksum");
    expect(existsSync(join(dir, "solcjs", "0.8.18+commit.87f61d96", "soljson.js"))).toBe(false);
  });

  it("an interrupted download leaves no usable file", async () => {
    const err = await compilers
      .compile({ language: "Solidity", version: "0.7.6+commit.7338295f", input: solInput("contract C {}") })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CompilerError);
    expect((err as CompilerError).kind).toBe("download");
    expect(server.hits("/bin/soljson-cut.js")).toBe(2); // retried once
    expect(await readdir(join(dir, "solcjs", "0.7.6+commit.7338295f")).catch(() => [])).toEqual([]);
  });

  it("detects a corrupt cached file and replaces it", async () => {
    const cached = join(dir, "solcjs", "0.8.26+commit.8a97fa7a", "soljson.js");
    await writeFile(cached, "corrupted");
    // A new registry is a new process: nothing remembered about the file.
    const again = createCompilers(config(), logger);
    try {
      const out = await again.compile({
        language: "Solidity",
        version: "0.8.26+commit.8a97fa7a",
        input: solInput("pragma solidity ^0.8.0; contract D {}"),
      });
      expect(errorsOf(out)).toEqual([]);
      expect(server.hits("/bin/soljson-v0.8.26+commit.8a97fa7a.js")).toBe(2);
      expect(sha256(await readFile(cached))).toBe(sha256(soljson0826));
    } finally {
      await again.close();
    }
  });
});

describe("native compilers (served scripts)", () => {
  type Fake = { args: string; cwd: string; cwdEntries: string; asLimitKb: string };

  it("runs solc with --standard-json in an empty temporary directory, no --allow-paths, memory-limited", async () => {
    const out = await compilers.compile({
      language: "Solidity",
      version: "0.8.99+commit.0badf00d",
      input: solInput("contract C {}"),
    });
    const fake = out.fake as Fake;
    expect(fake.args).toBe(`--standard-json --base-path ${fake.cwd}`);
    expect(fake.args).not.toContain("allow-paths");
    expect(fake.cwdEntries).toBe("0");
    expect(existsSync(fake.cwd)).toBe(false); // removed afterwards
    expect(fake.asLimitKb).toBe(String(MEMORY_MB * 1024));
    expect(server.hits("/linux-amd64/solc-linux-amd64-v0.8.99+commit.0badf00d")).toBe(1);
  });

  it("kills a compiler that hangs at the time limit, with a clear error", async () => {
    const short = createCompilers(config({ timeoutMs: 1500 }), logger);
    try {
      const started = Date.now();
      const err = await short
        .compile({
          language: "Solidity",
          version: "0.8.99+commit.0badf00d",
          input: solInput("// HANG\ncontract C {}"),
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CompilerError);
      expect((err as CompilerError).kind).toBe("timeout");
      expect((err as CompilerError).message).toMatch(/compilation timed out after 1500 ms/);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await short.close();
    }
  });

  it("reports a crash with the compiler's message", async () => {
    await expect(
      compilers.compile({
        language: "Solidity",
        version: "0.8.99",
        input: solInput("// CRASH\ncontract C {}"),
      }),
    ).rejects.toMatchObject({ kind: "crash", details: expect.stringContaining("boom") });
  });

  it("returns nothing of a file the compiler read from outside the input", async () => {
    const out = await compilers.compile({
      language: "Solidity",
      version: "0.8.99",
      input: solInput("// READ_PASSWD\ncontract C {}"),
    });
    expect(errorsOf(out).length).toBe(1);
    expect(JSON.stringify(out)).not.toMatch(/root:|:0:0/);
  });

  it("downloads and runs the Vyper binary of its list", async () => {
    const out = await compilers.compile({
      language: "Vyper",
      version: "v0.4.99+commit.c0ff",
      input: { language: "Vyper", sources: { "C.vy": { content: "# pragma version 0.4.99\n" } } },
    });
    expect(out.compiler).toBe("vyper-0.4.99");
    expect((out.fake as { args: string }).args).toBe("--standard-json");
    const bad = await compilers.compile({
      language: "Vyper",
      version: "0.4.99",
      input: {
        language: "Vyper",
        sources: { "C.vy": { content: "" } },
        settings: { search_paths: ["/etc"] },
      },
    });
    expect(errorsOf(bad).length).toBe(1);
  });
});

describe("offline", () => {
  it("lists the versions in COMPILERS_DIR and compiles with them when no list can be fetched", async () => {
    warnings.length = 0;
    const off = createCompilers(
      config({
        solcListUrl: "http://127.0.0.1:9/list.json",
        solcjsListUrl: "http://127.0.0.1:9/bin/list.json",
        vyperListUrl: "http://127.0.0.1:9/vyper.list.json",
      }),
      logger,
    );
    try {
      await off.ready();
      expect(off.listSolidity().map((c) => c.version)).toEqual([
        "v0.8.99+commit.0badf00d",
        "v0.8.26+commit.8a97fa7a",
        "v0.6.12+commit.27d51765",
      ]);
      expect(off.listVyper().map((c) => c.version)).toEqual(["v0.4.99+commit.c0ffee00"]);
      expect(warnings.filter((w) => w.includes("compiler list unavailable")).length).toBe(3);
      const hits = server.hits("/bin/soljson-v0.8.26+commit.8a97fa7a.js");
      const out = await off.compile({
        language: "Solidity",
        version: "0.8.26+commit.8a97fa7a",
        input: solInput("pragma solidity ^0.8.0; contract Offline {}"),
      });
      expect(errorsOf(out)).toEqual([]);
      expect(server.hits("/bin/soljson-v0.8.26+commit.8a97fa7a.js")).toBe(hits);
    } finally {
      await off.close();
    }
  });
});
