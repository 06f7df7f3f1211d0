import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";
import { OPTIONS } from "./options.js";

describe("loadConfig()", () => {
  it("applies defaults", () => {
    const c = loadConfig({});
    expect(c.port).toBe(4000);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.reorgDepth).toBe(128);
    expect(c.compilersDir.endsWith("data/compilers")).toBe(true);
    expect(c.chainName).toBe("Lookout chain");
    expect(c.coinBalanceHistoryDays).toBe(10);
  });
  it("lets flags win over the environment", () => {
    expect(loadConfig({ PORT: "5000" }, { port: "6000" }).port).toBe(6000);
  });
  it.each([
    [{ PORT: "abc" }, /PORT.*whole number.*"abc"/],
    [{ PORT: "70000" }, /PORT.*0 to 65535/],
    [{ DATABASE_URL: "not a url" }, /DATABASE_URL.*URL/],
    [{ DATABASE_URL: "mysql://x/y" }, /DATABASE_URL.*postgres: or postgresql: URL/],
    [{ RPC_URL: "ftp://x" }, /RPC_URL.*http: or https:/],
    [{ TRACES: "maybe" }, /TRACES.*auto, off/],
  ])("rejects %j naming the variable", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe("the option table", () => {
  it("covers every Config field and nothing else", () => {
    const keys = Object.keys(loadConfig({})).sort();
    expect(keys).toEqual(OPTIONS.map((o) => o.key).sort());
  });
});
