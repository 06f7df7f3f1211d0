import { describe, expect, it } from "vitest";
import { decodeColonInPath } from "./colon-url.js";

describe("decodeColonInPath", () => {
  it("decodes %3A and %3a in the path only", () => {
    expect(decodeColonInPath("/api/v2/verifier/solidity/sources%3Averify-multi-part")).toBe(
      "/api/v2/verifier/solidity/sources:verify-multi-part",
    );
    expect(decodeColonInPath("/a/sources%3asearch?x=%3A")).toBe("/a/sources:search?x=%3A");
    expect(decodeColonInPath("/a/b?c=d")).toBe("/a/b?c=d");
    // Other escapes stay as they are (the router decodes them itself).
    expect(decodeColonInPath("/a/%2F%3B")).toBe("/a/%2F%3B");
  });
});
