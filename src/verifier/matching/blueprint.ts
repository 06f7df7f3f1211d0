import { compareWithAuxdata, failed, hasMetadataHash, succeeded } from "./compare-code.js";
import { diagnoseMismatch } from "./diagnose.js";
import { bytesToHex } from "./hex.js";
import type { PreparedContract } from "./prepare-compiled.js";
import { emptyLog } from "./transformation-log.js";
import type { BytecodeMatch, Hex } from "./types.js";

/** ERC-5202: `0xFE71`, a byte `version << 2 | n`, then n bytes of data length, the data, and the init code. */
export type Blueprint = { version: number; data: Hex; initcode: Uint8Array };

export function parseBlueprint(code: Uint8Array): Blueprint | null {
  if (code.length < 3 || code[0] !== 0xfe || code[1] !== 0x71) return null;
  const third = code[2] as number;
  const lengthBytes = third & 0b11;
  if (lengthBytes === 3) return null; // reserved by the ERC
  let dataLength = 0;
  for (let i = 0; i < lengthBytes; i++) dataLength = dataLength * 256 + (code[3 + i] as number);
  const dataStart = 3 + lengthBytes;
  if (dataStart + dataLength > code.length) return null;
  return {
    version: third >> 2,
    data: bytesToHex(code.subarray(dataStart, dataStart + dataLength)),
    initcode: code.subarray(dataStart + dataLength),
  };
}

/**
 * Vyper's blueprint deployer (`-f blueprint_bytecode`): `PUSH2 len RETURNDATASIZE DUP2 PUSH1 0x0a RETURNDATASIZE
 * CODECOPY RETURN` followed by the blueprint code. Returns the deployed blueprint code, or null.
 */
export function stripBlueprintDeployer(input: Uint8Array): Uint8Array | null {
  const prefix = [0x61, -1, -1, 0x3d, 0x81, 0x60, 0x0a, 0x3d, 0x39, 0xf3];
  if (input.length < prefix.length) return null;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== -1 && input[i] !== prefix[i]) return null;
  const length = ((input[1] as number) << 8) | (input[2] as number);
  return length === input.length - prefix.length ? input.subarray(prefix.length) : null;
}

/**
 * A blueprint's on-chain code holds the contract's init code, never run, so it is matched against the compiled
 * creation code: same length, auxdata the only allowed difference. Offsets are into the compiled creation code.
 */
export function matchBlueprintCode(prepared: PreparedContract, blueprintCode: Uint8Array): BytecodeMatch {
  const { contract } = prepared;
  const parsed = parseBlueprint(blueprintCode);
  if (!parsed)
    return failed({ reason: "bytecode_mismatch", message: "The code is not an ERC-5202 blueprint." });
  if (!prepared.creation.ok) {
    return failed({
      reason: prepared.creation.reason,
      message: "The compiled creation code cannot be read.",
    });
  }
  const compiled = prepared.creation.bytes;
  const positions = prepared.creationAuxdata;
  if (compiled.length !== parsed.initcode.length) {
    return failed(
      diagnoseMismatch(
        contract.language,
        contract.compilerVersion,
        compiled,
        parsed.initcode,
        positions,
        "length_mismatch",
      ),
    );
  }
  const log = emptyLog();
  const outcome = compareWithAuxdata(compiled, parsed.initcode, positions, log);
  if (outcome.kind === "different") {
    return failed(
      diagnoseMismatch(contract.language, contract.compilerVersion, outcome.code, parsed.initcode, positions),
    );
  }
  const full =
    outcome.kind === "identical" &&
    hasMetadataHash(contract.language, contract.compilerVersion, parsed.initcode, positions);
  return succeeded(log, full);
}
