import { InvalidInputError } from "../../errors/base.js";

/** A Vyper standard JSON interface entry: source text, an ABI, or an ethPM manifest's `contractTypes`. */
export type VyperInterface =
  | { content: string }
  | { abi: unknown[] }
  | { contractTypes: Record<string, unknown> };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** An ABI in any of the shapes tools write it, or null. */
function abiOf(json: unknown): unknown[] | null {
  // A bare ABI array (vyper -f abi, Etherscan, solc --abi).
  if (Array.isArray(json)) return json;
  if (!isObject(json)) return null;
  // {abi: [...]}, and the Hardhat, Foundry and Truffle artifacts, which keep it at the same key.
  if (Array.isArray(json.abi)) return json.abi;
  // solc's metadata.json.
  if (isObject(json.output) && Array.isArray(json.output.abi)) return json.output.abi;
  return null;
}

/**
 * Reads one `.json` interface file (ABI) of a request. Vyper itself understands `{abi}` and ethPM's
 * `{contractTypes}`; every other usual shape is reduced to `{abi}`. Anything else is the user's mistake (400).
 */
export function jsonInterface(path: string, text: string): VyperInterface {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new InvalidInputError(`Interface ${path} is not valid JSON: ${(e as Error).message}`, {
      field: "interfaces",
    });
  }
  if (isObject(json) && isObject(json.contractTypes)) return { contractTypes: json.contractTypes };
  const abi = abiOf(json);
  if (!abi) {
    throw new InvalidInputError(
      `Interface ${path} holds no ABI: expected an ABI array, {"abi": [...]}, a Hardhat or Foundry artifact, or an ethPM manifest`,
      { field: "interfaces" },
    );
  }
  return { abi };
}

/** One interface of a multi-part request: `.json` files are ABIs, everything else is Vyper source. */
export function interfaceFromFile(path: string, text: string): VyperInterface {
  return /\.json$/i.test(path) ? jsonInterface(path, text) : { content: text };
}

/**
 * The `interfaces` of a standard JSON input with ABIs in the usual shapes reduced to ones Vyper reads: a `.json`
 * entry given as `{content: "<json>"}` or with an artifact under `abi` becomes `{abi}`. Other entries pass as they
 * are (the compiler reports what it cannot read).
 */
export function normaliseInterfaces(interfaces: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, entry] of Object.entries(interfaces)) {
    if (!/\.json$/i.test(path) || !isObject(entry)) {
      out[path] = entry;
    } else if (typeof entry.content === "string") {
      out[path] = jsonInterface(path, entry.content);
    } else if (entry.abi !== undefined && !Array.isArray(entry.abi)) {
      out[path] = { abi: abiOf(entry.abi) ?? entry.abi };
    } else {
      out[path] = entry;
    }
  }
  return out;
}
