import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  canonicalJson,
  canonicalJsonParts,
  compilationKey,
  compilerText,
  DiskCache,
  MemoryLruCache,
  TieredCache,
} from "./compilation-cache.js";
import type { CompilerOutput } from "./types.js";

describe("compilation cache", () => {
  const dirs: string[] = [];
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), "lookout-cache-"));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const fileOf = (dir: string, key: string) => join(dir, key.slice(0, 2), `${key}.json`);

  it("writes the compiler's own text when it is known, and reads back the same output", async () => {
    const dir = fresh();
    const disk = new DiskCache(dir);
    const text = '{ "contracts": {"a.sol": {}},  "sources": {} }';
    const output = JSON.parse(text) as CompilerOutput;
    compilerText.set(output, text);
    const key = "ab".repeat(32);
    await disk.set(key, output);
    expect(readFileSync(fileOf(dir, key), "utf8")).toBe(text);
    expect(await disk.get(key)).toEqual(output);
    // No leftover temporary files.
    expect(readdirSync(join(dir, "ab"))).toEqual([`${key}.json`]);
  });

  it("serialises an output it has no text for; a torn file is a miss", async () => {
    const dir = fresh();
    const tiers = new TieredCache([new MemoryLruCache(10), new DiskCache(dir)]);
    const output = { errors: [{ severity: "error", message: "x" }] } as unknown as CompilerOutput;
    const key = "cd".repeat(32);
    await tiers.set(key, output);
    expect(JSON.parse(readFileSync(fileOf(dir, key), "utf8"))).toEqual(output);
    const disk = new DiskCache(dir);
    expect(await disk.get(key)).toEqual(output);
    writeFileSync(fileOf(dir, key), '{"errors": [');
    expect(await disk.get(key)).toBeUndefined();
  });

  it("keys an input by its key-sorted text, the same whether hashed whole or in pieces", () => {
    const input = {
      sources: {
        "b.sol": { content: 'contract B { string s = "é\\u2028\\"x"; }' },
        "a.sol": { content: "" },
      },
      settings: {
        optimizer: { runs: 200, enabled: true },
        libraries: { "2": {}, "10": {} },
        skipped: undefined,
      },
      list: [1, undefined, null, { z: 1.5e300, a: true }],
    };
    // Keys sorted as strings ("10" before "2"), undefined members left out, undefined array items null.
    const text =
      '{"list":[1,null,null,{"a":true,"z":1.5e+300}],"settings":{"libraries":{"10":{},"2":{}},' +
      '"optimizer":{"enabled":true,"runs":200}},"sources":{"a.sol":{"content":""},' +
      '"b.sol":{"content":"contract B { string s = \\"é\\\\u2028\\\\\\"x\\"; }"}}}';
    expect(canonicalJson(input)).toBe(text);
    const parts: string[] = [];
    canonicalJsonParts(input, parts);
    expect(parts.length).toBeGreaterThan(1);
    const whole = createHash("sha256").update("Solidity\nv1\n").update(text).digest("hex");
    expect(compilationKey("Solidity", "v1", parts)).toBe(whole);
    expect(compilationKey("Solidity", "v1", text)).toBe(whole);
  });
});
