import { describe, expect, it } from "vitest";
import { utf8Text } from "./utf8-text.js";

describe("utf8Text", () => {
  it("decodes ASCII and multi-byte UTF-8 to the same text Buffer#toString gives", () => {
    for (const text of ['{"result":"0x1a"}', "", 'revert "caf\u00e9" \u2713 \u{1F600}', "\u00ff\u0100"]) {
      const buf = Buffer.from(text, "utf8");
      expect(utf8Text(buf)).toBe(text);
      expect(utf8Text(buf)).toBe(buf.toString("utf8"));
    }
  });

  it("replaces invalid UTF-8 as toString does (no Latin-1 reading of high bytes)", () => {
    const buf = Buffer.from([0x7b, 0xe9, 0x7d]);
    expect(utf8Text(buf)).toBe(buf.toString("utf8"));
    expect(utf8Text(buf)).not.toBe(buf.toString("latin1"));
  });
});
