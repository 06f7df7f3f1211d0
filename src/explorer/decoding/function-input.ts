import {
  type Abi,
  type AbiFunction,
  type AbiParameter,
  decodeFunctionData,
  getAddress,
  type Hex,
  toFunctionSelector,
} from "viem";

/** Blockscout's decoded_input (TransactionView "decoded_input.json"). */
export type DecodedInput = {
  method_id: string;
  method_call: string;
  parameters: Array<{ name: string; type: string; value: unknown }>;
};

/** `name(type1 name1, type2 name2)`, the text Blockscout shows as method_call. */
export function methodCallText(fn: AbiFunction): string {
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
      method_id: selector,
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
