import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { Hex } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import { rpc } from "../helpers/activity.js";
import { describeWithSharedFixtures, sharedFixturePaths } from "../helpers/shared-fixtures.js";
import { startVerifierEnv, type VerifierEnv } from "../helpers/verify.js";

type Fixture = {
  version: string;
  fully_qualified_name: string;
  sources: Record<string, string>;
  compiler_settings: Record<string, unknown>;
  deployed_creation_code: Hex | null;
  deployed_runtime_code: Hex;
  creation_match: boolean;
  runtime_match: boolean;
  creation_metadata_match: boolean | null;
  runtime_metadata_match: boolean | null;
  creation_transformations: unknown[] | null;
  runtime_transformations: unknown[] | null;
  creation_values: Record<string, unknown> | null;
  runtime_values: Record<string, unknown> | null;
};

const cases = sharedFixturePaths("verifier-alliance/solidity").map(
  (path) => [basename(path), JSON.parse(readFileSync(path, "utf8")) as Fixture] as const,
);

const standardJson = (f: Fixture) =>
  JSON.stringify({
    language: "Solidity",
    sources: Object.fromEntries(Object.entries(f.sources).map(([p, content]) => [p, { content }])),
    settings: f.compiler_settings,
  });

/** A fixture without `*_metadata_match` (genesis) is full iff no auxdata was replaced and it carries a hash. */
function expectedType(f: Fixture, side: "creation" | "runtime") {
  if (!f[`${side}_match`]) return null;
  const stated = f[`${side}_metadata_match`];
  const hashed =
    (f.compiler_settings.metadata as { bytecodeHash?: string } | undefined)?.bytecodeHash !== "none";
  const replaced = (f[`${side}_transformations`] ?? []).some(
    (t) => (t as { reason: string }).reason === "cborAuxdata",
  );
  return (stated ?? (hashed && !replaced)) ? "full" : "partial";
}

describeWithSharedFixtures(
  "Verifier Alliance Solidity fixtures through POST /api/v1/solidity/sources:verify-standard-json",
  () => {
    let env: VerifierEnv;
    const addresses = new Map<string, Hex>();

    beforeAll(async () => {
      env = await startVerifierEnv();
      for (const [name, f] of cases) {
        if (f.deployed_creation_code) {
          addresses.set(name, await env.deploy(f.deployed_creation_code));
        } else {
          // Genesis: the code is in place without a creation transaction.
          const address = `0x${"ab".repeat(19)}${(addresses.size + 1).toString(16).padStart(2, "0")}` as Hex;
          await rpc(env.chain.anvil.url, "anvil_setCode", [address, f.deployed_runtime_code]);
          addresses.set(name, address);
        }
      }
      await env.sync();
    });
    afterAll(async () => {
      await env?.stop();
    });

    it("finds all eleven fixtures", () => {
      expect(cases).toHaveLength(11);
    });

    for (const [name, f] of cases) {
      it(`${name}: status, creation and runtime match, transformations and values`, async () => {
        const address = addresses.get(name)!;
        expect(await rpc(env.chain.anvil.url, "eth_getCode", [address, "latest"])).toBe(
          f.deployed_runtime_code,
        );
        const r = await env.post("/api/v1/solidity/sources:verify-standard-json", {
          contracts: [{ chainId: String(env.chain.anvil.chainId), address }],
          compiler: f.version,
          input: standardJson(f),
        });
        expect(r.statusCode).toBe(200);
        expect(Object.keys(r.body)).toEqual(["contractVerificationResults"]);
        const [item] = r.body.contractVerificationResults.items;
        const creation = expectedType(f, "creation");
        const runtime = expectedType(f, "runtime");
        const full = creation === "full" || runtime === "full";
        expect(item).toMatchObject({
          status: full ? "FULLY_VERIFIED" : "PARTIALLY_VERIFIED",
          chainId: String(env.chain.anvil.chainId),
          address: address.toLowerCase(),
          contractName: f.fully_qualified_name.split(":")[1],
          fileName: f.fully_qualified_name.split(":")[0],
          creationMatch: creation,
          runtimeMatch: runtime,
        });
        if (f.creation_match) {
          expect(item.transformations.creation).toEqual(f.creation_transformations);
          expect(item.transformations.creationValues).toEqual(f.creation_values);
        }
        if (f.runtime_match) {
          expect(item.transformations.runtime).toEqual(f.runtime_transformations);
          expect(item.transformations.runtimeValues).toEqual(f.runtime_values);
        }
      });
    }

    it("stored every fixture; a second verification returns the stored status", async () => {
      const rows = await env.db.db.query<{ n: number }>("select count(*)::int as n from verified_contracts");
      expect(rows[0]!.n).toBe(11);
      const [name, f] = cases.find(([n]) => n === "full_match.json")!;
      const again = await env.post("/api/v1/solidity/sources:verify-standard-json", {
        contracts: [{ chainId: env.chain.anvil.chainId, address: addresses.get(name) }],
        compiler: f.version,
        input: standardJson(f),
      });
      expect(again.body.contractVerificationResults.items[0].status).toBe("FULLY_VERIFIED");
    });
  },
);
