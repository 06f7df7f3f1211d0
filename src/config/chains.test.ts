import { describe, expect, it } from "vitest";
import { parseChainsConfig, withIndexedChain } from "./chains.js";
import { ConfigError } from "./config.js";

describe("parseChainsConfig()", () => {
  it("reads chains in order with defaults", () => {
    const chains = parseChainsConfig(
      JSON.stringify([
        { id: 1, name: "Ethereum", rpcUrl: "https://rpc.example", iconUrl: "https://x/i.png" },
        { id: "11155111", name: "Sepolia", rpcUrl: "http://127.0.0.1:8545", isTestnet: true },
      ]),
      "chains.json",
    );
    expect(chains.map((c) => c.id)).toEqual(["1", "11155111"]);
    expect(chains[0]).toMatchObject({ isTestnet: false, iconUrl: "https://x/i.png", explorerUrl: null });
  });
  it.each([
    ["{}", /expected a JSON array/],
    ["[", /not valid JSON/],
    ['[{"id":"abc","name":"x","rpcUrl":"http://a"}]', /entry 0: "id" must be a positive chain id/],
    ['[{"id":1,"name":"","rpcUrl":"http://a"}]', /entry 0: "name"/],
    ['[{"id":1,"name":"x","rpcUrl":"ws://a"}]', /"rpcUrl" must be an http\(s\) URL/],
    [
      '[{"id":1,"name":"x","rpcUrl":"http://a"},{"id":1,"name":"y","rpcUrl":"http://b"}]',
      /entry 1: chain id 1 appears twice/,
    ],
    ['[{"id":1,"name":"x","rpcUrl":"http://a","isTestnet":"yes"}]', /"isTestnet" must be true or false/],
  ])("rejects %s", (text, message) => {
    expect(() => parseChainsConfig(text, "f.json")).toThrow(ConfigError);
    expect(() => parseChainsConfig(text, "f.json")).toThrow(message);
  });
  it("always includes the indexed chain", () => {
    const configured = parseChainsConfig('[{"id":5,"name":"x","rpcUrl":"http://a"}]', "f");
    expect(
      withIndexedChain(configured, { id: "31337", name: "local", rpcUrl: "http://b" }).map((c) => [
        c.id,
        c.indexed,
      ]),
    ).toEqual([
      ["31337", true],
      ["5", false],
    ]);
    expect(withIndexedChain(configured, { id: "5", name: "local", rpcUrl: "http://b" })[0]!.indexed).toBe(
      true,
    );
  });

  it("reads which chains the deployment indexes, with their type, and refuses bad values", () => {
    const chains = parseChainsConfig(
      '[{"id":5,"name":"a","rpcUrl":"http://a","index":true,"chainType":"optimism"},{"id":6,"name":"b","rpcUrl":"http://b"}]',
      "f",
    );
    expect(chains.map((c) => [c.id, c.index, c.chainType])).toEqual([
      ["5", true, "optimism"],
      ["6", false, "auto"],
    ]);
    expect(() => parseChainsConfig('[{"id":5,"name":"a","rpcUrl":"http://a","index":"yes"}]', "f")).toThrow(
      /"index" must be true or false/,
    );
    expect(() =>
      parseChainsConfig('[{"id":5,"name":"a","rpcUrl":"http://a","chainType":"zk"}]', "f"),
    ).toThrow(/"chainType" must be one of/);
  });
});
