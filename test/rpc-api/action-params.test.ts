import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRpc } from "../../src/chain/rpc.js";
import { withIndexedChain } from "../../src/config/chains.js";
import { Params } from "../../src/http/etherscan-params.js";
import { RPC_MODULES, rpcApiRoute } from "../../src/rpc-api/index.js";
import type { ParamSpec } from "../../src/rpc-api/param-spec.js";
import type { RpcApiDeps } from "../../src/rpc-api/reply.js";
import type { VerifierChain } from "../../src/verifier/chain-clients.js";
import type { EtherscanApi } from "../../src/verifier-apis/etherscan/actions.js";
import { type RpcWorld, startRpcWorld } from "./setup.js";

/** Params that remember every name an action asks for (lower case, as Params matches them). */
class RecordingParams extends Params {
  readonly read = new Set<string>();
  override get(name: string) {
    this.read.add(name.toLowerCase());
    return super.get(name);
  }
  override raw(name: string) {
    this.read.add(name.toLowerCase());
    return super.raw(name);
  }
}

/** Numbered library parameters (1..20) are declared once, as number 1. */
const declaredName = (name: string) =>
  name
    .toLowerCase()
    .replace(/^(libraryname|libraryaddress)\d+$/, "$11")
    .replace(/^library\d+(name|address)$/, "library1$1");

/** What the dispatcher itself reads, whatever the action. */
const DISPATCHER = new Set(["module", "action"]);

const MISSING = /required|missing|attach at least/i;

describe("each /api action's declared parameters", () => {
  let w: RpcWorld;
  let deps: RpcApiDeps;
  beforeAll(async () => {
    w = await startRpcWorld();
    const configs = withIndexedChain([], { id: String(w.chain.anvil.chainId), name: "Local", rpcUrl: w.url });
    const chains = new Map<string, VerifierChain>(
      configs.map((c) => [
        c.id,
        { config: c, rpc: createRpc({ url: w.url, batchSize: 10, timeoutMs: 10_000, retries: 0 }) },
      ]),
    );
    // The verification actions reach no compiler here: a verify service that verifies nothing, a queue that refuses.
    const verification = {
      db: w.db.db,
      chains,
      compilers: {
        listSolidity: () => [],
        listVyper: () => [],
        resolveVersion: (_l: string, v: string) => v,
      },
      verify: async () => ({ kind: "verification", items: [] }),
      jobs: { submit: async () => Promise.reject(new Error("no queue in this test")), get: async () => null },
    } as unknown as EtherscanApi;
    deps = { db: w.db.db, chains, verification };
  }, 300_000);
  afterAll(async () => {
    await w?.stop();
  });

  it("every action of the dispatcher's table has a parameter spec, and no spec names an unserved action", () => {
    const problems: string[] = [];
    for (const [module, groups] of Object.entries(RPC_MODULES)) {
      const served = new Set(groups.flatMap((g) => Object.keys(g.actions)));
      for (const g of groups) {
        for (const action of Object.keys(g.actions))
          if (!Object.hasOwn(g.params, action)) problems.push(`${module}.${action}: no parameter spec`);
        for (const action of Object.keys(g.params))
          if (!served.has(action)) problems.push(`${module}.${action}: a spec for no action`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("with only its required parameters, no action answers a missing parameter nor reads an undeclared one", async () => {
    const value = (s: ParamSpec): string => {
      switch (s.type) {
        case "address":
          return s.name.toLowerCase().includes("contract") ? w.coin : w.acct[1]!;
        case "hash":
          return w.forwardTx;
        case "integer":
          return "1";
        case "boolean":
          return "false";
        case "hex":
          return "";
        case "file":
          return "";
        case "string":
          return (
            s.enum?.[0] ??
            { date: "2026-01-01", fromblock: "0", toblock: "latest" }[s.name.toLowerCase()] ??
            "x"
          );
      }
    };
    const problems: string[] = [];
    let ran = 0;
    for (const [module, groups] of Object.entries(RPC_MODULES))
      for (const g of groups)
        for (const action of Object.keys(g.actions)) {
          const spec = g.params[action] ?? [];
          const seen = new Set<string>();
          const given: Record<string, string> = { module, action };
          for (const s of spec) {
            // One parameter of each one-of group (the first declared).
            const needed = s.required === true || (typeof s.required === "string" && !seen.has(s.required));
            if (typeof s.required === "string") seen.add(s.required);
            if (needed && s.type !== "file") given[s.name] = value(s);
          }
          const p = new RecordingParams(given);
          if (spec.some((s) => s.type === "file" && s.required === true))
            p.files = [
              { name: "metadata.json", content: "{}" },
              { name: "A.sol", content: "contract A {}" },
            ];
          let text: string;
          try {
            const answer = await rpcApiRoute(p)(deps, { error: () => {} } as never);
            text = JSON.stringify(answer);
          } catch (err) {
            text = String(err);
          }
          ran++;
          if (MISSING.test(text)) problems.push(`${module}.${action}: ${text.slice(0, 200)}`);
          const declared = new Set(spec.map((s) => declaredName(s.name)));
          for (const name of p.read)
            if (!DISPATCHER.has(name) && !declared.has(declaredName(name)))
              problems.push(`${module}.${action} reads undeclared "${name}"`);
        }
    expect(ran).toBeGreaterThanOrEqual(40);
    expect(problems).toEqual([]);
  }, 300_000);
});
