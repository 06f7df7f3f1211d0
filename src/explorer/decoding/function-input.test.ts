import { type Abi, encodeFunctionData, getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { decodeFunctionInput, methodName } from "./function-input.js";

const abi = [
  {
    type: "function",
    name: "submit",
    stateMutability: "nonpayable",
    inputs: [
      { name: "who", type: "address" },
      { name: "amounts", type: "uint256[]" },
      { name: "ok", type: "bool" },
      { name: "data", type: "bytes" },
      {
        name: "order",
        type: "tuple",
        components: [
          { name: "id", type: "uint64" },
          { name: "tag", type: "string" },
        ],
      },
    ],
    outputs: [],
  },
  { type: "function", name: "ping", stateMutability: "view", inputs: [], outputs: [] },
] as const satisfies Abi;

const who = "0x00000000000000000000000000000000000000ab";

describe("decodeFunctionInput", () => {
  it("renders values as Blockscout's DecodingHelper: checksummed addresses, strings for numbers and booleans", () => {
    const data = encodeFunctionData({
      abi,
      functionName: "submit",
      args: [who, [1n, 2n ** 200n], true, "0xDEAD", { id: 7n, tag: "x" }],
    });
    expect(decodeFunctionInput(abi, data)).toEqual({
      method_id: data.slice(2, 10),
      method_call: "submit(address who, uint256[] amounts, bool ok, bytes data, (uint64,string) order)",
      parameters: [
        { name: "who", type: "address", value: getAddress(who) },
        { name: "amounts", type: "uint256[]", value: ["1", (2n ** 200n).toString()] },
        { name: "ok", type: "bool", value: "true" },
        { name: "data", type: "bytes", value: "0xdead" },
        { name: "order", type: "(uint64,string)", value: ["7", "x"] },
      ],
    });
  });

  it("answers null for an unknown selector or input that does not decode", () => {
    expect(decodeFunctionInput(abi, "0x12345678")).toBeNull();
    const ping = encodeFunctionData({ abi, functionName: "ping" });
    expect(decodeFunctionInput(abi, ping)?.method_call).toBe("ping()");
    const submit = encodeFunctionData({
      abi,
      functionName: "submit",
      args: [who, [], false, "0x", { id: 1n, tag: "" }],
    });
    expect(decodeFunctionInput(abi, submit.slice(0, 20) as `0x${string}`)).toBeNull();
  });

  it("names the method as Blockscout lists it", () => {
    const ping = encodeFunctionData({ abi, functionName: "ping" });
    expect(methodName(decodeFunctionInput(abi, ping), ping, true)).toBe("ping");
    expect(methodName(null, "0xa9059cbb00", true)).toBe("0xa9059cbb");
    expect(methodName(null, "0xa9059cbb00", false)).toBeNull();
    expect(methodName(null, "0x", true)).toBeNull();
  });
});
