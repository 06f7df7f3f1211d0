import { describe, expect, it } from "vitest";
import { guardOutput, sanitizeInput } from "./sanitize.js";

const fails = (r: ReturnType<typeof sanitizeInput>) => (r.ok ? undefined : r.output.errors?.[0]?.message);

describe("sanitizeInput", () => {
  it("requires content and refuses urls", () => {
    expect(
      fails(sanitizeInput("Solidity", { language: "Solidity", sources: { a: { urls: ["/etc/passwd"] } } })),
    ).toMatch(/urls is not supported/);
    expect(fails(sanitizeInput("Solidity", { language: "Solidity", sources: { a: {} } }))).toMatch(
      /no "content"/,
    );
    expect(fails(sanitizeInput("Solidity", { language: "Solidity", sources: {} }))).toMatch(
      /No input sources/,
    );
    expect(fails(sanitizeInput("Solidity", { language: "Vyper", sources: { a: { content: "" } } }))).toMatch(
      /language/,
    );
    expect(sanitizeInput("Solidity", { sources: { a: { content: "contract A {}" } } })).toMatchObject({
      ok: true,
      input: { language: "Solidity" },
    });
  });

  it("keeps Vyper search paths inside the input", () => {
    const vy = (search_paths: unknown) =>
      sanitizeInput("Vyper", {
        language: "Vyper",
        sources: { "a.vy": { content: "" } },
        settings: { search_paths },
      });
    expect(vy(["."]).ok).toBe(true);
    expect(vy(["lib", "./src"]).ok).toBe(true);
    for (const bad of [["/etc"], ["../.."], ["lib/../../x"], "/"]) expect(vy(bad).ok).toBe(false);
    expect(
      sanitizeInput("Vyper", {
        language: "Vyper",
        sources: { "a.vy": { content: "" } },
        interfaces: { "I.json": { abi: [] }, "J.vy": { urls: ["/etc/passwd"] } },
      }).ok,
    ).toBe(false);
  });
});

describe("guardOutput", () => {
  it("replaces an output that mentions a source outside the input", () => {
    const input = { sources: { "a.sol": { content: "" } } };
    const ok = { sources: { "a.sol": { id: 0 } }, errors: [] };
    expect(guardOutput(input, ok)).toBe(ok);
    const leaked = guardOutput(input, {
      sources: { "a.sol": { id: 0 }, "/etc/passwd": { id: 1 } },
      errors: [{ severity: "error", message: "root:x:0:0", sourceLocation: { file: "/etc/passwd" } }],
    });
    expect(JSON.stringify(leaked)).not.toContain("root:x");
    expect(leaked.errors?.[0]?.severity).toBe("error");
  });
});
