import {
  type Abi,
  type AbiFunction,
  type AbiParameter,
  decodeErrorResult,
  decodeFunctionData,
  getAddress,
  type Hex,
  toFunctionSelector,
} from "viem";

/** An `error` entry of an ABI. */
type AbiError = Extract<Abi[number], { type: "error" }>;

/** Blockscout's decoded_input (TransactionView "decoded_input.json"). */
export type DecodedInput = {
  /** The selector as bare lower-case hex (`a9059cbb`), as Blockscout encodes it (Base.encode16). */
  method_id: string;
  method_call: string;
  parameters: Array<{ name: string; type: string; value: unknown }>;
};

/** `name(type1 name1, type2 name2)`, the text Blockscout shows as method_call (of a function or an error). */
export function methodCallText(fn: AbiFunction | AbiError): string {
  return `${fn.name}(${fn.inputs.map((p) => (p.name ? `${typeText(p)} ${p.name}` : typeText(p))).join(", ")})`;
}

export function typeText(p: AbiParameter): string {
  if (!p.type.startsWith("tuple")) return p.type;
  const inner = (p as AbiParameter & { components: readonly AbiParameter[] }).components.map(typeText);
  return `(${inner.join(",")})${p.type.slice("tuple".length)}`;
}

/**
 * Decodes a call's input with the callee's ABI, as Blockscout renders it: values through DecodingHelper.value_json
 * (checksummed addresses, integers as decimal strings, bytes as lower-case hex, tuples and arrays as arrays).
 * Null when the ABI has no function with the input's selector or the input does not decode.
 */
export function decodeFunctionInput(abi: Abi, input: Hex): DecodedInput | null {
  if (input.length < 10) return null;
  const selector = input.slice(0, 10).toLowerCase();
  const fn = abi.find(
    (i): i is AbiFunction => i.type === "function" && toFunctionSelector(i).toLowerCase() === selector,
  );
  if (!fn) return null;
  try {
    const { args } = decodeFunctionData({ abi: [fn], data: input });
    const values = (args ?? []) as readonly unknown[];
    return {
      method_id: selector.slice(2),
      method_call: methodCallText(fn),
      parameters: fn.inputs.map((p, i) => ({
        name: p.name ?? "",
        type: typeText(p),
        value: valueJson(p, values[i]),
      })),
    };
  } catch {
    return null;
  }
}

export function valueJson(p: AbiParameter, v: unknown): unknown {
  const arr = /^(.*)\[\d*\]$/.exec(p.type);
  if (arr) {
    const inner = { ...p, type: arr[1]! } as AbiParameter;
    return (v as readonly unknown[]).map((x) => valueJson(inner, x));
  }
  if (p.type === "tuple") {
    const comps = (p as AbiParameter & { components: readonly AbiParameter[] }).components;
    // viem gives named components as an object, unnamed as an array; Blockscout renders both as a list.
    return comps.map((c, i) =>
      valueJson(c, Array.isArray(v) ? v[i] : (v as Record<string, unknown>)[c.name ?? String(i)]),
    );
  }
  if (p.type === "address") return getAddress(v as string);
  if (typeof v === "string") return p.type.startsWith("bytes") ? v.toLowerCase() : v;
  // Blockscout renders every other scalar (integers, booleans) with to_string.
  return String(v);
}

/** The method name Blockscout shows in transaction lists (Transaction.method_name). */
export function methodName(decoded: DecodedInput | null, input: Hex, toIsContract: boolean): string | null {
  if (decoded) return decoded.method_call.slice(0, decoded.method_call.indexOf("("));
  if (toIsContract && input.length >= 10) return input.slice(0, 10).toLowerCase();
  return null;
}

/**
 * Revert data decoded with a contract's ABI (its custom `error` entries), rendered as decoded_input: Blockscout
 * decodes a revert reason that is neither Error(string) nor Panic(uint256) with the callee's verified ABI. Null when
 * no error of the ABI has the data's selector or the data does not decode.
 */
export function decodeErrorData(abi: Abi, data: Hex): DecodedInput | null {
  if (data.length < 10) return null;
  const errors = abi.filter((i): i is AbiError => i.type === "error");
  if (!errors.length) return null;
  try {
    // viem finds the error by its selector (it knows Error(string) and Panic(uint256) too).
    const { abiItem, args } = decodeErrorResult({ abi: errors, data });
    if (abiItem.type !== "error") return null;
    const values = (args ?? []) as readonly unknown[];
    return {
      method_id: data.slice(2, 10).toLowerCase(),
      method_call: methodCallText(abiItem),
      parameters: abiItem.inputs.map((p, i) => ({
        name: p.name ?? "",
        type: typeText(p),
        value: valueJson(p, values[i]),
      })),
    };
  } catch {
    return null;
  }
}
