import { bytesToHex } from "./hex.js";
import { record, type TransformationLog } from "./transformation-log.js";

const PUSH20 = 0x73;

/**
 * A Solidity library's runtime code starts with `PUSH20 <its own address>`, compiled as 20 zero bytes and filled in
 * at deployment, so calls that are not DELEGATECALLs can be refused. Copy the on-chain address in.
 */
export function applyCallProtection(compiled: Uint8Array, onchain: Uint8Array, log: TransformationLog): void {
  if (compiled.length < 21 || onchain.length < 21 || compiled[0] !== PUSH20 || onchain[0] !== PUSH20) return;
  for (let i = 1; i <= 20; i++) if (compiled[i] !== 0) return;
  const address = onchain.slice(1, 21);
  compiled.set(address, 1);
  record(log, "replace", "callProtection", 1);
  log.values.callProtection = bytesToHex(address);
}
