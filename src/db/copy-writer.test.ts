import { describe, expect, it } from "vitest";
import { CopyWriter } from "./copy-writer.js";

describe("CopyWriter", () => {
  it("writes fields as COPY text, escaped free text in UTF-8, growing past its first capacity", () => {
    const w = new CopyWriter(4);
    const row: Array<[unknown, string]> = [
      ["0xAbCd", "bytea"],
      [Uint8Array.from([1, 255]), "bytea"],
      [null, "numeric"],
      ["12345678901234567890", "numeric"],
      [true, "bool"],
      [7, "int4"],
      ["a\tb\nc\\d caf\u00e9 \u{1F600}", "text"],
    ];
    row.forEach(([v, type], i) => {
      w.field(v, type);
      w.end(i === row.length - 1);
    });
    expect(w.bytes().toString("utf8")).toBe(
      "\\\\xAbCd\t\\\\x01ff\t\\N\t12345678901234567890\tt\t7\ta\\tb\\nc\\\\d caf\u00e9 \u{1F600}\n",
    );
    expect(w.length).toBe(w.bytes().byteLength);
  });

  it("gives a small text in memory of its size, not the writer's", () => {
    const w = new CopyWriter(64 * 1024);
    w.field(1, "int8");
    w.end(true);
    expect(w.bytes().toString()).toBe("1\n");
    expect(w.bytes().buffer.byteLength).toBeLessThan(64 * 1024);
  });

  it("never turns a character of malformed hex into a delimiter byte", () => {
    // U+0109 truncated to a byte would be a tab: a column shifted by the node's answer.
    const w = new CopyWriter();
    w.field("0x\u0109\u010a", "bytea");
    w.end(true);
    const bytes = [...w.bytes()];
    expect(bytes.filter((b) => b === 9 || b === 10)).toEqual([10]);
    expect(w.bytes().toString("utf8")).toBe("\\\\x\u0109\u010a\n");
  });
});
