import { type Abi, type AbiEvent, decodeEventLog, type Hex, toEventSelector } from "viem";
import { typeText, valueJson } from "./function-input.js";

/** Blockscout's decoded log ("decoded_log_input.json"): parameters carry `indexed`. */
export type DecodedLog = {
  method_id: string;
  method_call: string;
  parameters: Array<{ name: string; type: string; indexed: boolean; value: unknown }>;
};

/** Unnamed parameters are `arg0`, `arg1`, … as Blockscout names them. */
const paramName = (name: string | undefined, i: number) => (name ? name : `arg${i}`);

/** `Transfer(address indexed from, address indexed to, uint256 value)`, Blockscout's text for an event. */
export function eventCallText(ev: AbiEvent): string {
  const params = ev.inputs.map(
    (p, i) => `${typeText(p)} ${p.indexed ? "indexed " : ""}${paramName(p.name, i)}`,
  );
  return `${ev.name}(${params.join(", ")})`;
}

/**
 * Decodes a log with the emitter's ABI: the event whose selector is topic0 (and whose indexed count fits the
 * topics). method_id is the selector's first four bytes without 0x, as Blockscout shows it. Null when nothing in
 * the ABI decodes the log (anonymous events included: they have no selector to find).
 */
export function decodeEventLogWithAbi(
  abi: Abi,
  topics: readonly (Hex | null)[],
  data: Hex,
): DecodedLog | null {
  const topic0 = topics[0];
  if (!topic0) return null;
  const present = topics.filter((t): t is Hex => t !== null);
  const selector = topic0.toLowerCase();
  for (const ev of abi) {
    if (ev.type !== "event" || ev.anonymous || toEventSelector(ev).toLowerCase() !== selector) continue;
    if (ev.inputs.filter((p) => p.indexed).length !== present.length - 1) continue;
    try {
      const { args } = decodeEventLog({ abi: [ev], topics: present as [Hex, ...Hex[]], data, strict: true });
      const values = args as unknown as Record<string, unknown> | readonly unknown[];
      return {
        method_id: selector.slice(2, 10),
        method_call: eventCallText(ev),
        parameters: ev.inputs.map((p, i) => ({
          name: paramName(p.name, i),
          type: typeText(p),
          indexed: !!p.indexed,
          value: valueJson(
            p,
            Array.isArray(values) ? values[i] : (values as Record<string, unknown>)[p.name ?? String(i)],
          ),
        })),
      };
    } catch {
      // Another event with the same selector may fit (different indexed layout); otherwise undecodable.
    }
  }
  return null;
}
