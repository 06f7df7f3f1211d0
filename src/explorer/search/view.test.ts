import { describe, expect, it } from "vitest";
import { wholeUnits } from "./view.js";

describe("wholeUnits", () => {
  it("divides by 10^decimals, rounding down; leaves what it cannot read as it is", () => {
    expect(wholeUnits("5000000000000000000", "18")).toBe("5");
    expect(wholeUnits("5500000000000000000", "18")).toBe("5");
    expect(wholeUnits("7", "0")).toBe("7");
    expect(wholeUnits("7", null)).toBe("7");
    expect(wholeUnits(null, "18")).toBeNull();
  });
});
