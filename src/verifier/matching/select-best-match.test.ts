import { describe, expect, it } from "vitest";
import { selectBestMatch } from "./select-best-match.js";
import type { BytecodeMatch, ContractMatch, MatchType } from "./types.js";

const side = (type: MatchType | null): BytecodeMatch => ({
  match: type !== null,
  type,
  transformations: [],
  values: {},
  metadataMatch: type === "full",
});
const result = (creation: MatchType | null, runtime: MatchType | null): ContractMatch => ({
  creationMatch: side(creation),
  runtimeMatch: side(runtime),
  matchType: creation === "full" || runtime === "full" ? "full" : creation || runtime ? "partial" : null,
  constructorArguments: null,
  isBlueprint: false,
});

describe("selectBestMatch()", () => {
  it("prefers full over partial, then creation+runtime over one side", () => {
    const rs = [
      result(null, null),
      result("partial", "partial"),
      result(null, "full"),
      result("full", null),
      result("full", "full"),
      result("full", "partial"),
    ];
    expect(selectBestMatch(rs)?.index).toBe(4);
    expect(selectBestMatch(rs.slice(0, 4))?.index).toBe(3);
    expect(selectBestMatch(rs.slice(0, 3))?.index).toBe(2);
    expect(
      selectBestMatch([result("partial", null), result(null, "partial"), result("partial", "partial")])
        ?.index,
    ).toBe(2);
    expect(selectBestMatch([result(null, "partial"), result("partial", null)])?.index).toBe(1);
  });
  it("keeps input order on ties and returns null when nothing matched", () => {
    expect(selectBestMatch([result("partial", "partial"), result("partial", "partial")])?.index).toBe(0);
    expect(selectBestMatch([result(null, null)])).toBeNull();
    expect(selectBestMatch([])).toBeNull();
  });
});
