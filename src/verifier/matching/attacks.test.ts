import { expect, it } from "vitest";
import { describeWithSharedFixtures, readSharedFixtures } from "../../../test/helpers/shared-fixtures.js";
import { matchContract } from "./match-contract.js";
import type { CompiledContract, OnchainContract } from "./types.js";

const fixtures = readSharedFixtures("verifier-alliance/solidity", "verifier-alliance/vyper");
const vyperOutputs = readSharedFixtures("vyper-compiler-outputs");

type Artifacts = Pick<CompiledContract, "linkReferences" | "immutableReferences"> & {
  cborAuxdata?: CompiledContract["creationCborAuxdata"];
};
type Va = {
  language: string;
  version: string;
  compiled_creation_code: string;
  compiled_runtime_code: string;
  deployed_creation_code: string;
  deployed_runtime_code: string;
  creation_code_artifacts: Artifacts;
  runtime_code_artifacts: Artifacts;
  compilation_artifacts: { abi: CompiledContract["abi"] };
};

function va(name: string): { compiled: CompiledContract; onchain: OnchainContract } {
  const key = Object.keys(fixtures).find((k) => k.endsWith(`verifier-alliance/${name}.json`)) as string;
  const f = fixtures[key] as Va;
  const c = f.creation_code_artifacts;
  const r = f.runtime_code_artifacts;
  return {
    compiled: {
      language: f.language === "vyper" ? "Vyper" : "Solidity",
      compilerVersion: f.version,
      creationCode: f.compiled_creation_code,
      runtimeCode: f.compiled_runtime_code,
      linkReferences: c.linkReferences,
      deployedLinkReferences: r.linkReferences,
      immutableReferences: r.immutableReferences,
      creationCborAuxdata: c.cborAuxdata,
      runtimeCborAuxdata: r.cborAuxdata,
      abi: f.compilation_artifacts.abi,
    },
    onchain: { runtimeCode: f.deployed_runtime_code, creationInput: f.deployed_creation_code },
  };
}

type VyperOutput = {
  creation_bytecode: string;
  deployed_bytecode: string;
  compiler_version: string;
  expected_constructor_argument?: string | null;
  expected_compiler_artifacts?: { abi: CompiledContract["abi"] };
  expected_local_creation_code?: { data: string }[];
  expected_local_runtime_code?: { data: string }[];
};

/** The recorded output; an empty one when the shared fixtures are absent (its tests are skipped then). */
function vyperOutput(name: string): VyperOutput {
  const key = Object.keys(vyperOutputs).find((k) => k.endsWith(`/${name}.json`));
  return (key ? vyperOutputs[key] : {}) as VyperOutput;
}

/** Flips one byte (XOR 0xff) at a byte offset of a 0x-hex string. */
function flip(code: string, offset: number): string {
  const at = 2 + offset * 2;
  const byte = (Number.parseInt(code.slice(at, at + 2), 16) ^ 0xff).toString(16).padStart(2, "0");
  return code.slice(0, at) + byte + code.slice(at + 2);
}

function setBytes(code: string, offset: number, hex: string): string {
  const at = 2 + offset * 2;
  return code.slice(0, at) + hex + code.slice(at + hex.length);
}

describeWithSharedFixtures("constructor arguments", () => {
  it("rejects a suffix that decodes but does not re-encode identically (trailing garbage)", () => {
    const { compiled, onchain } = va("solidity/constructor_arguments");
    const spoofed = { ...onchain, creationInput: `${onchain.creationInput}${"00".repeat(32)}` };
    const r = matchContract(compiled, spoofed);
    expect(r.creationMatch.match).toBe(false);
    expect(r.creationMatch.diagnosis?.reason).toBe("constructor_arguments_invalid");
    expect(r.runtimeMatch.type).toBe("full");
    expect(r.constructorArguments).toBeNull();
  });

  it("rejects a suffix shorter than one word", () => {
    const { compiled, onchain } = va("solidity/constructor_arguments");
    const r = matchContract(compiled, {
      ...onchain,
      creationInput: (onchain.creationInput as string).slice(0, -2),
    });
    expect(r.creationMatch.diagnosis?.reason).toBe("constructor_arguments_invalid");
  });

  it("rejects a missing argument (an abstract-contract style prefix match)", () => {
    const { compiled, onchain } = va("solidity/constructor_arguments");
    const input = (onchain.creationInput as string).slice(0, -64);
    const r = matchContract(compiled, { ...onchain, creationInput: input });
    expect(r.creationMatch.diagnosis?.reason).toBe("constructor_arguments_invalid");
  });

  it("rejects any suffix when the constructor takes no arguments", () => {
    const { compiled, onchain } = va("solidity/full_match");
    const r = matchContract(compiled, {
      ...onchain,
      creationInput: `${onchain.creationInput}${"00".repeat(32)}`,
    });
    expect(r.creationMatch.diagnosis?.reason).toBe("constructor_arguments_invalid");
    expect(r.creationMatch.diagnosis?.firstDifferingByte).toBe(339);
  });

  it("rejects a non-canonical address (dirty high bytes) that viem would decode", () => {
    const o = vyperOutput("with_interfaces");
    const args = o.expected_constructor_argument as string;
    const creationInput = o.creation_bytecode;
    const compiled: CompiledContract = {
      language: "Vyper",
      compilerVersion: o.compiler_version,
      creationCode: creationInput.slice(0, creationInput.length - args.length),
      runtimeCode: o.deployed_bytecode,
      abi: [
        {
          type: "constructor",
          inputs: ["_llamma", "_router", "_crvusd"].map((name) => ({ name, type: "address" })),
        },
      ],
    };
    const dirty = `${creationInput.slice(0, creationInput.length - args.length)}ff${args.slice(2)}`;
    const r = matchContract(compiled, {
      runtimeCode: o.deployed_bytecode,
      creationInput: dirty,
    });
    expect(r.creationMatch.diagnosis?.reason).toBe("constructor_arguments_invalid");
    const ok = matchContract(compiled, { runtimeCode: o.deployed_bytecode, creationInput });
    expect(ok.constructorArguments?.decoded.map((d) => d.name)).toEqual(["_llamma", "_router", "_crvusd"]);
  });

  it("rejects a string argument whose offset word was changed", () => {
    const o = vyperOutput("arguments");
    const args = o.expected_constructor_argument as string;
    const input = o.creation_bytecode;
    const head = input.slice(0, input.length - args.length);
    const compiled: CompiledContract = {
      language: "Vyper",
      compilerVersion: o.compiler_version,
      creationCode: head,
      runtimeCode: o.deployed_bytecode,
      abi: o.expected_compiler_artifacts?.abi,
    };
    const changed = `${head}${args.slice(0, 62)}40${args.slice(64)}`; // offset 0x20 → 0x40
    const r = matchContract(compiled, { runtimeCode: o.deployed_bytecode, creationInput: changed });
    expect(r.creationMatch.match).toBe(false);
    expect(r.creationMatch.diagnosis?.reason).toBe("constructor_arguments_invalid");
    const good = matchContract(compiled, { runtimeCode: o.deployed_bytecode, creationInput: input });
    expect(good.constructorArguments?.decoded).toEqual([{ name: "name", type: "string", value: "10000" }]);
  });

  it("accepts a changed uint argument as a different, valid argument", () => {
    const { compiled, onchain } = va("solidity/constructor_arguments");
    const input = onchain.creationInput as string;
    const r = matchContract(compiled, { ...onchain, creationInput: flip(input, (input.length - 2) / 2 - 1) });
    expect(r.creationMatch.type).toBe("full");
    expect(r.constructorArguments?.decoded[0]?.value).toBe(String(0x30c6));
  });
});

describeWithSharedFixtures("CBOR-shaped bytes in the middle of code", () => {
  it("are not treated as auxdata: a planted CBOR blob is a mismatch, with or without artifacts", () => {
    const { compiled, onchain } = va("solidity/full_match");
    const fakeCbor = "a2646970667358221220" + "11".repeat(32) + "64736f6c63430008120033";
    const planted = { ...onchain, runtimeCode: setBytes(onchain.runtimeCode, 20, fakeCbor) };
    for (const c of [
      compiled,
      { ...compiled, runtimeCborAuxdata: undefined, creationCborAuxdata: undefined },
    ]) {
      const r = matchContract(c, planted);
      expect(r.runtimeMatch.match).toBe(false);
      expect(r.runtimeMatch.diagnosis?.reason).toBe("bytecode_mismatch");
      expect(r.runtimeMatch.diagnosis?.firstDifferingByte).toBe(20);
    }
  });

  it("inside the compiled code are not waived either", () => {
    const { compiled, onchain } = va("solidity/full_match");
    const fakeCbor = "a2646970667358221220" + "11".repeat(32) + "64736f6c63430008120033";
    const withBlob = setBytes(compiled.runtimeCode, 20, fakeCbor);
    const otherBlob = setBytes(compiled.runtimeCode, 20, fakeCbor.replace("1111", "2222"));
    const r = matchContract(
      { ...compiled, runtimeCode: withBlob, runtimeCborAuxdata: undefined },
      { ...onchain, runtimeCode: otherBlob },
    );
    expect(r.runtimeMatch.match).toBe(false);
    expect(r.runtimeMatch.diagnosis?.firstDifferingByte).toBe(30);
  });
});

describeWithSharedFixtures("one byte changed", () => {
  it("in code: no match, and the first differing byte is reported", () => {
    const { compiled, onchain } = va("solidity/full_match");
    const r = matchContract(compiled, {
      runtimeCode: flip(onchain.runtimeCode, 100),
      creationInput: flip(onchain.creationInput as string, 100),
    });
    expect(r.matchType).toBeNull();
    expect(r.runtimeMatch.diagnosis).toMatchObject({ reason: "bytecode_mismatch", firstDifferingByte: 100 });
    expect(r.creationMatch.diagnosis).toMatchObject({ reason: "bytecode_mismatch", firstDifferingByte: 100 });
  });

  it("in the auxdata hash: partial, the on-chain auxdata recorded", () => {
    const { compiled, onchain } = va("solidity/full_match");
    const runtimeCode = flip(onchain.runtimeCode, 254 + 10);
    const r = matchContract(compiled, { ...onchain, runtimeCode });
    expect(r.runtimeMatch.type).toBe("partial");
    expect(r.runtimeMatch.metadataMatch).toBe(false);
    expect(r.runtimeMatch.transformations).toEqual([
      { type: "replace", reason: "cborAuxdata", offset: 254, id: "1" },
    ]);
    expect(r.runtimeMatch.values.cborAuxdata?.["1"]).toBe(`0x${runtimeCode.slice(2 + 254 * 2)}`);
    expect(r.creationMatch.type).toBe("full");
    expect(r.matchType).toBe("full");
  });

  it("in code and in the CBOR compiler version: the diagnosis names both versions", () => {
    const { compiled, onchain } = va("solidity/full_match");
    // The solc version bytes 00 08 12 end 2 bytes before the end; make them 0.8.19 and change code too.
    const len = (onchain.runtimeCode.length - 2) / 2;
    const runtimeCode = setBytes(flip(onchain.runtimeCode, 3), len - 4, "0813");
    const r = matchContract(compiled, { runtimeCode });
    expect(r.runtimeMatch.diagnosis?.compilerVersions).toEqual({ compiled: "0.8.18", onchain: "0.8.19" });
    expect(r.runtimeMatch.diagnosis?.firstDifferingByte).toBe(3);
  });

  it("in a Solidity immutable: still a match, with the on-chain value", () => {
    const { compiled, onchain } = va("solidity/immutables");
    const r = matchContract(compiled, { ...onchain, runtimeCode: flip(onchain.runtimeCode, 176) });
    expect(r.runtimeMatch.type).toBe("full");
    expect(r.runtimeMatch.values.immutables?.["7"]?.slice(0, 4)).toBe("0xff");
  });

  it("in the Vyper immutables tail: still a match; a shorter or longer tail is not", () => {
    const { compiled, onchain } = va("vyper/constructor_args_immutables");
    const changed = matchContract(compiled, { runtimeCode: flip(onchain.runtimeCode, 170) });
    expect(changed.runtimeMatch.match).toBe(true);
    const shorter = matchContract(compiled, { runtimeCode: onchain.runtimeCode.slice(0, -2) });
    expect(shorter.runtimeMatch.diagnosis?.reason).toBe("vyper_immutables_size_mismatch");
    const none = matchContract(compiled, { runtimeCode: compiled.runtimeCode });
    expect(none.runtimeMatch.diagnosis?.reason).toBe("vyper_immutables_size_mismatch");
    const longer = matchContract(compiled, { runtimeCode: `${onchain.runtimeCode}00` });
    expect(longer.runtimeMatch.diagnosis?.reason).toBe("vyper_immutables_size_mismatch");
  });

  it("in Vyper code before the immutables: a code mismatch", () => {
    const { compiled, onchain } = va("vyper/constructor_args_immutables");
    const r = matchContract(compiled, { runtimeCode: flip(onchain.runtimeCode, 7) });
    expect(r.runtimeMatch.diagnosis).toMatchObject({ reason: "bytecode_mismatch", firstDifferingByte: 7 });
  });

  it("in Vyper 0.4.1 creation auxdata (integrity hash): partial instead of full", () => {
    const { compiled, onchain } = va("vyper/auxdata-0.4.1");
    const r = matchContract(compiled, {
      ...onchain,
      creationInput: flip(onchain.creationInput as string, 160),
    });
    expect(r.creationMatch.type).toBe("partial");
    expect(r.creationMatch.transformations).toEqual([
      { type: "replace", reason: "cborAuxdata", offset: 158, id: "1" },
    ]);
    expect(r.matchType).toBe("partial");
  });
});

describeWithSharedFixtures("Vyper immutables before 0.3.10", () => {
  it("runtime-only verification with an appended tail says why it cannot match", () => {
    const o = vyperOutput("simple");
    const compiled: CompiledContract = {
      language: "Vyper",
      compilerVersion: o.compiler_version,
      creationCode: o.creation_bytecode,
      runtimeCode: o.deployed_bytecode,
      abi: [],
    };
    const r = matchContract(compiled, { runtimeCode: `${o.deployed_bytecode}${"00".repeat(31)}2a` });
    expect(r.runtimeMatch.diagnosis?.reason).toBe("vyper_immutables_size_unknown");
    expect(r.runtimeMatch.diagnosis?.message).toMatch(/creation transaction/);
    const broken = matchContract(compiled, {
      runtimeCode: `${flip(o.deployed_bytecode, 2)}${"00".repeat(32)}`,
    });
    expect(broken.runtimeMatch.diagnosis?.reason).toBe("bytecode_mismatch");
  });
});

describeWithSharedFixtures("libraries and call protection", () => {
  it("records call protection for a library's PUSH20 guard", () => {
    const address = "7d53f102f4d4aa014db4e10d6deec2009b3cda6b";
    const compiled: CompiledContract = {
      language: "Solidity",
      compilerVersion: "0.8.18+commit.87f61d96",
      creationCode: "0x",
      runtimeCode: `0x73${"00".repeat(20)}3014608060405200`,
    };
    const r = matchContract(compiled, { runtimeCode: `0x73${address}3014608060405200` });
    expect(r.runtimeMatch).toMatchObject({
      match: true,
      type: "partial",
      transformations: [{ type: "replace", reason: "callProtection", offset: 1 }],
      values: { callProtection: `0x${address}` },
    });
  });

  it("rejects one library linked to two different addresses", () => {
    const placeholder = "__$aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa$__";
    const compiled: CompiledContract = {
      language: "Solidity",
      compilerVersion: "0.8.18+commit.87f61d96",
      creationCode: "0x",
      runtimeCode: `0x73${placeholder}73${placeholder}00`,
      deployedLinkReferences: {
        "a.sol": {
          L: [
            { start: 1, length: 20 },
            { start: 22, length: 20 },
          ],
        },
      },
    };
    const same = matchContract(compiled, { runtimeCode: `0x73${"11".repeat(20)}73${"11".repeat(20)}00` });
    expect(same.runtimeMatch.values.libraries).toEqual({ "a.sol:L": `0x${"11".repeat(20)}` });
    const differ = matchContract(compiled, { runtimeCode: `0x73${"11".repeat(20)}73${"22".repeat(20)}00` });
    expect(differ.runtimeMatch.diagnosis?.reason).toBe("library_addresses_inconsistent");
  });

  it("rejects a placeholder without a link reference", () => {
    const compiled: CompiledContract = {
      language: "Solidity",
      compilerVersion: "0.8.18+commit.87f61d96",
      creationCode: "0x",
      runtimeCode: `0x73__$aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa$__00`,
    };
    const r = matchContract(compiled, { runtimeCode: `0x73${"11".repeat(20)}00` });
    expect(r.runtimeMatch.diagnosis?.reason).toBe("unlinked_library_placeholder");
  });

  it("rejects Solidity immutables with different values at their references", () => {
    const compiled: CompiledContract = {
      language: "Solidity",
      compilerVersion: "0.8.18+commit.87f61d96",
      creationCode: "0x",
      runtimeCode: `0x7f${"00".repeat(32)}7f${"00".repeat(32)}00`,
      immutableReferences: {
        "3": [
          { start: 1, length: 32 },
          { start: 34, length: 32 },
        ],
      },
    };
    const r = matchContract(compiled, { runtimeCode: `0x7f${"01".repeat(32)}7f${"02".repeat(32)}00` });
    expect(r.runtimeMatch.diagnosis?.reason).toBe("immutable_values_inconsistent");
  });
});

describeWithSharedFixtures("ERC-5202 blueprints", () => {
  const o = vyperOutput("blueprint");
  const compiled: CompiledContract = {
    language: "Vyper",
    compilerVersion: o.compiler_version,
    creationCode: o.expected_local_creation_code?.[0]?.data as string,
    runtimeCode: o.expected_local_runtime_code?.[0]?.data as string,
  };
  it("matches the init code behind the preamble, creation through the deployer", () => {
    const r = matchContract(compiled, {
      runtimeCode: o.deployed_bytecode,
      creationInput: o.creation_bytecode,
    });
    expect(r.isBlueprint).toBe(true);
    expect(r.runtimeMatch.type).toBe("partial");
    expect(r.creationMatch.type).toBe("partial");
  });
  it("fails on one changed byte of the init code", () => {
    const r = matchContract(compiled, { runtimeCode: flip(o.deployed_bytecode, 10) });
    expect(r.runtimeMatch.diagnosis).toMatchObject({ reason: "bytecode_mismatch", firstDifferingByte: 7 });
  });
});
