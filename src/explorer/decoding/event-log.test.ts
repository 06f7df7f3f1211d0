import { type Abi, encodeAbiParameters, encodeEventTopics, getAddress, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { decodeEventLogWithAbi } from "./event-log.js";

const abi = [
  {
    type: "event",
    name: "Moved",
    inputs: [
      { name: "who", type: "address", indexed: true },
      { name: "", type: "uint256[]", indexed: false },
      { name: "tag", type: "bytes4", indexed: false },
    ],
  },
  { type: "event", name: "Quiet", anonymous: true, inputs: [{ name: "x", type: "uint256", indexed: false }] },
] as const satisfies Abi;

const who = "0x00000000000000000000000000000000000000aa";

describe("decoded logs (Blockscout's decoded_log_input)", () => {
  it("names unnamed parameters argN, marks indexed ones and renders values as Blockscout does", () => {
    const topics = encodeEventTopics({ abi, eventName: "Moved", args: { who } }) as Hex[];
    const data = encodeAbiParameters([{ type: "uint256[]" }, { type: "bytes4" }], [[1n, 2n], "0xABCDEF01"]);
    const d = decodeEventLogWithAbi(abi, [...topics, null, null], data);
    expect(d).toEqual({
      method_id: topics[0]!.slice(2, 10),
      method_call: "Moved(address indexed who, uint256[] arg1, bytes4 tag)",
      parameters: [
        { name: "who", type: "address", indexed: true, value: getAddress(who) },
        { name: "arg1", type: "uint256[]", indexed: false, value: ["1", "2"] },
        { name: "tag", type: "bytes4", indexed: false, value: "0xabcdef01" },
      ],
    });
  });

  it("is null for a log the ABI cannot decode: unknown selector, wrong topic count, bad data, anonymous", () => {
    const topics = encodeEventTopics({ abi, eventName: "Moved", args: { who } }) as Hex[];
    expect(decodeEventLogWithAbi(abi, [`0x${"11".repeat(32)}`], "0x")).toBeNull();
    expect(decodeEventLogWithAbi(abi, [topics[0]!], "0x")).toBeNull();
    expect(decodeEventLogWithAbi(abi, topics, "0x1234")).toBeNull();
    expect(decodeEventLogWithAbi(abi, [], "0x")).toBeNull();
  });
});
