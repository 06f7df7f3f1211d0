import { expect, it } from "vitest";
import { describeWithSharedFixtures, readSharedFixtures } from "../../../test/helpers/shared-fixtures.js";
import { decodeOnchain, matchContract } from "./match-contract.js";
import type {
  AbiItemLike,
  CborAuxdataPositions,
  CompiledContract,
  ImmutableReferences,
  Language,
  LinkReferences,
  OnchainContract,
  Transformation,
  TransformationValues,
} from "./types.js";

// The shared fixtures (see fixtures/README.md there); the tests skip, saying so, in a clone without them.
const solidity = readSharedFixtures("verifier-alliance/solidity");
const vyper = readSharedFixtures("verifier-alliance/vyper");

type Artifacts = {
  linkReferences?: LinkReferences | null;
  immutableReferences?: ImmutableReferences | null;
  cborAuxdata?: CborAuxdataPositions | null;
};
/** The Verifier Alliance test-case fields this test reads. */
type Fixture = {
  language: string;
  version: string;
  compiled_creation_code: string;
  compiled_runtime_code: string;
  deployed_creation_code: string | null;
  deployed_runtime_code: string;
  creation_code_artifacts?: Artifacts;
  runtime_code_artifacts?: Artifacts;
  compilation_artifacts?: { abi?: AbiItemLike[] };
  creation_match: boolean;
  runtime_match: boolean;
  creation_metadata_match?: boolean | null;
  runtime_metadata_match?: boolean | null;
  creation_transformations: Transformation[] | null;
  runtime_transformations: Transformation[] | null;
  creation_values: TransformationValues | null;
  runtime_values: TransformationValues | null;
};

function compiledFromFixture(f: Fixture, withArtifactAuxdata = true): CompiledContract {
  const language: Language = f.language === "vyper" ? "Vyper" : f.language === "yul" ? "Yul" : "Solidity";
  const c = f.creation_code_artifacts ?? {};
  const r = f.runtime_code_artifacts ?? {};
  return {
    language,
    compilerVersion: f.version,
    creationCode: f.compiled_creation_code,
    runtimeCode: f.compiled_runtime_code,
    linkReferences: c.linkReferences,
    deployedLinkReferences: r.linkReferences,
    immutableReferences: r.immutableReferences,
    ...(withArtifactAuxdata ? { creationCborAuxdata: c.cborAuxdata, runtimeCborAuxdata: r.cborAuxdata } : {}),
    abi: f.compilation_artifacts?.abi,
  };
}

function onchainFromFixture(f: Fixture): OnchainContract {
  return { runtimeCode: f.deployed_runtime_code, creationInput: f.deployed_creation_code };
}

/** The one documented deviation (fixtures/README.md): Vyper's 0.4.1 integrity hash makes a full match for us. */
const FULL_FOR_LOOKOUT = new Set(["auxdata-0.4.1.json"]);

const cases = [...Object.entries(solidity), ...Object.entries(vyper)].map(
  ([path, f]) => [path.split("/").slice(-2).join("/"), f as Fixture] as const,
);

describeWithSharedFixtures("matchContract() on the Verifier Alliance fixtures", () => {
  it("finds every fixture", () => {
    expect(Object.keys(solidity)).toHaveLength(11);
    expect(Object.keys(vyper)).toHaveLength(5);
  });

  for (const [name, f] of cases) {
    it(`${name}: matches, metadata match, transformations and values as expected`, () => {
      const result = matchContract(compiledFromFixture(f), onchainFromFixture(f));
      const deviates = FULL_FOR_LOOKOUT.has(name.split("/")[1] as string);

      expect(result.runtimeMatch.match).toBe(f.runtime_match);
      if (f.runtime_match) {
        expect(result.runtimeMatch.transformations).toEqual(f.runtime_transformations);
        expect(result.runtimeMatch.values).toEqual(f.runtime_values);
        if (f.runtime_metadata_match != null) {
          expect(result.runtimeMatch.metadataMatch).toBe(f.runtime_metadata_match);
        }
      }

      expect(result.creationMatch.match).toBe(f.creation_match);
      if (f.creation_match) {
        expect(result.creationMatch.transformations).toEqual(f.creation_transformations);
        expect(result.creationMatch.values).toEqual(f.creation_values);
        if (f.creation_metadata_match != null) {
          expect(result.creationMatch.metadataMatch).toBe(deviates ? true : f.creation_metadata_match);
        }
      } else {
        expect(result.creationMatch.diagnosis?.reason).toBe("onchain_code_unavailable");
      }

      // metadataMatch is exactly "full"; a fixture without a metadata hash is a partial match.
      for (const m of [result.creationMatch, result.runtimeMatch]) {
        if (m.match) expect(m.type).toBe(m.metadataMatch ? "full" : "partial");
      }
      if (deviates) expect(result.matchType).toBe("full");
      const ctor = f.creation_values?.constructorArguments;
      expect(result.constructorArguments?.encoded ?? undefined).toBe(ctor);
    });

    it(`${name}: the same result with the on-chain codes decoded once beforehand`, () => {
      const onchain = onchainFromFixture(f);
      expect(matchContract(compiledFromFixture(f), decodeOnchain(onchain))).toEqual(
        matchContract(compiledFromFixture(f), onchain),
      );
    });

    it(`${name}: auxdata positions derived without artifacts give the same outcome`, () => {
      const withArtifacts = matchContract(compiledFromFixture(f), onchainFromFixture(f));
      const derived = matchContract(compiledFromFixture(f, false), onchainFromFixture(f));
      expect(derived.runtimeMatch).toEqual(withArtifacts.runtimeMatch);
      // Factories have several auxdata in creation code: only the artifacts (or a second compilation) prove them.
      const creationAuxdata = Object.keys(f.creation_code_artifacts?.cborAuxdata ?? {}).length;
      if (creationAuxdata <= 1) expect(derived.creationMatch).toEqual(withArtifacts.creationMatch);
    });
  }
});
