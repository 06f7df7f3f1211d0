import { applyCallProtection } from "./call-protection.js";
import { compareWithAuxdata, failed, hasMetadataHash, succeeded } from "./compare-code.js";
import { diagnoseMismatch } from "./diagnose.js";
import { hexToBytes } from "./hex.js";
import { applySolidityImmutables, applyVyperImmutables } from "./immutables.js";
import { applyLibraries } from "./libraries.js";
import type { PreparedContract } from "./prepare-compiled.js";
import { emptyLog } from "./transformation-log.js";
import type { BytecodeMatch } from "./types.js";

/**
 * Matches compiled runtime code against `eth_getCode`. Order as in the Verifier Alliance records: call protection,
 * immutables, libraries, then auxdata (only if the code is not already identical).
 */
export function matchRuntimeCode(
  prepared: PreparedContract,
  onchainRuntime: string | null | undefined,
  /** onchainRuntime's bytes when the caller decoded them already (null: not hex). */
  decoded?: Uint8Array | null,
): BytecodeMatch {
  const { contract } = prepared;
  const onchain = !onchainRuntime ? null : decoded !== undefined ? decoded : hexToBytes(onchainRuntime);
  if (onchainRuntime && !onchain)
    return failed({ reason: "invalid_hex", message: "The on-chain runtime code is not hex." });
  if (!onchain || onchain.length === 0) {
    return failed({
      reason: "onchain_code_unavailable",
      message: "There is no runtime code at the address.",
    });
  }
  if (!prepared.runtime.ok) {
    return failed({
      reason: prepared.runtime.reason,
      message:
        "The compiled runtime code cannot be read (bad hex or a library placeholder without a link reference).",
      ...(prepared.runtime.offset === undefined ? {} : { firstDifferingByte: prepared.runtime.offset }),
    });
  }
  if (prepared.runtime.bytes.length === 0) {
    return failed({
      reason: "compiled_code_empty",
      message: "The compiled runtime code is empty (abstract contract or interface).",
    });
  }
  const log = emptyLog();
  let compiled: Uint8Array = prepared.runtime.bytes.slice();
  const positions = prepared.runtimeAuxdata;
  const { language, compilerVersion } = contract;

  if (language === "Vyper") {
    if (compiled.length > onchain.length) {
      return failed(
        diagnoseMismatch(language, compilerVersion, compiled, onchain, positions, "length_mismatch"),
      );
    }
    const withImmutables = applyVyperImmutables(compiled, onchain, prepared.vyperImmutableSize, log);
    if ("diagnosis" in withImmutables) {
      // Say "cannot know the immutables" only when the code itself matches; otherwise the code difference matters more.
      const head = onchain.subarray(0, compiled.length);
      const outcome = compareWithAuxdata(compiled, head, positions, emptyLog());
      if (outcome.kind === "different")
        return failed(diagnoseMismatch(language, compilerVersion, outcome.code, head, positions));
      return failed(withImmutables.diagnosis);
    }
    compiled = withImmutables.code;
  } else {
    if (compiled.length !== onchain.length) {
      return failed(
        diagnoseMismatch(language, compilerVersion, compiled, onchain, positions, "length_mismatch"),
      );
    }
    applyCallProtection(compiled, onchain, log);
    const immutableError = applySolidityImmutables(compiled, onchain, contract.immutableReferences, log);
    if (immutableError) return failed(immutableError);
  }

  const linkError = applyLibraries(compiled, onchain, contract.deployedLinkReferences, log);
  if (linkError) {
    return failed({
      reason: linkError.reason,
      message: `Library ${linkError.id} is linked to different addresses in the on-chain code.`,
      firstDifferingByte: linkError.offset,
    });
  }

  const outcome = compareWithAuxdata(compiled, onchain, positions, log);
  if (outcome.kind === "different") {
    return failed(diagnoseMismatch(language, compilerVersion, outcome.code, onchain, positions));
  }
  const full = outcome.kind === "identical" && hasMetadataHash(language, compilerVersion, onchain, positions);
  return succeeded(log, full);
}
