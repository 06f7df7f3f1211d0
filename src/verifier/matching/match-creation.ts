import { compareWithAuxdata, failed, hasMetadataHash, succeeded } from "./compare-code.js";
import { validateConstructorArguments } from "./constructor-arguments.js";
import { diagnoseMismatch } from "./diagnose.js";
import { hexToBytes } from "./hex.js";
import { applyLibraries } from "./libraries.js";
import type { PreparedContract } from "./prepare-compiled.js";
import { emptyLog, record } from "./transformation-log.js";
import type { BytecodeMatch, ConstructorArguments } from "./types.js";

export type CreationMatch = BytecodeMatch & { constructorArguments: ConstructorArguments | null };

/**
 * Matches compiled creation code against the creation input: the input must start with the (linked, auxdata-
 * adjusted) compiled code, and the rest must be valid constructor arguments for the ABI. Order: libraries,
 * auxdata, constructor arguments.
 */
export function matchCreationCode(
  prepared: PreparedContract,
  creationInput: string | null | undefined,
  /** creationInput's bytes when the caller decoded them already (null: not hex). */
  decoded?: Uint8Array | null,
): CreationMatch {
  const withoutArgs = (m: BytecodeMatch): CreationMatch => ({ ...m, constructorArguments: null });
  const { contract } = prepared;
  const onchain = !creationInput ? null : decoded !== undefined ? decoded : hexToBytes(creationInput);
  if (creationInput && !onchain) {
    return withoutArgs(failed({ reason: "invalid_hex", message: "The creation input is not hex." }));
  }
  if (!onchain || onchain.length === 0) {
    return withoutArgs(
      failed({
        reason: "onchain_code_unavailable",
        message: "No creation input is known for this contract (e.g. a genesis allocation).",
      }),
    );
  }
  if (!prepared.creation.ok) {
    return withoutArgs(
      failed({
        reason: prepared.creation.reason,
        message:
          "The compiled creation code cannot be read (bad hex or a library placeholder without a link reference).",
        ...(prepared.creation.offset === undefined ? {} : { firstDifferingByte: prepared.creation.offset }),
      }),
    );
  }
  const compiled = prepared.creation.bytes.slice();
  if (compiled.length === 0) {
    return withoutArgs(
      failed({ reason: "compiled_code_empty", message: "The compiled creation code is empty." }),
    );
  }
  const { language, compilerVersion } = contract;
  const positions = prepared.creationAuxdata;
  if (onchain.length < compiled.length) {
    return withoutArgs(
      failed(diagnoseMismatch(language, compilerVersion, compiled, onchain, positions, "length_mismatch")),
    );
  }
  const log = emptyLog();
  const linkError = applyLibraries(compiled, onchain, contract.linkReferences, log);
  if (linkError) {
    return withoutArgs(
      failed({
        reason: linkError.reason,
        message: `Library ${linkError.id} is linked to different addresses in the creation input.`,
        firstDifferingByte: linkError.offset,
      }),
    );
  }
  const head = onchain.subarray(0, compiled.length);
  const outcome = compareWithAuxdata(compiled, head, positions, log);
  if (outcome.kind === "different") {
    return withoutArgs(failed(diagnoseMismatch(language, compilerVersion, outcome.code, head, positions)));
  }

  const args = validateConstructorArguments(onchain.subarray(compiled.length), contract.abi);
  if (!args.ok) {
    return withoutArgs(
      failed({
        reason: "constructor_arguments_invalid",
        message: args.message,
        firstDifferingByte: compiled.length,
        compiledLength: compiled.length,
        onchainLength: onchain.length,
      }),
    );
  }
  if (args.args) {
    record(log, "insert", "constructorArguments", compiled.length);
    log.values.constructorArguments = args.args.encoded;
  }
  const full = outcome.kind === "identical" && hasMetadataHash(language, compilerVersion, head, positions);
  return { ...succeeded(log, full), constructorArguments: args.args };
}
