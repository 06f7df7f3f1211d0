import { describe, expect, it } from "vitest";
import { RecentlyFetched } from "./token-events.js";

describe("RecentlyFetched", () => {
  it("keeps ids for the window only, and gives them to every joiner within it", () => {
    let now = 0;
    const r = new RecentlyFetched(1000, 100, () => now);
    r.note("token_instances:0xa", ["1", "2"]);
    now = 500;
    r.note("token_instances:0xa", ["2"]);
    expect(r.take("token_instances:0xa")).toEqual(["1", "2"]);
    expect(r.take("token_instances:0xa")).toEqual(["1", "2"]);
    now = 1200;
    expect(r.take("token_instances:0xa")).toEqual(["2"]);
    now = 1600;
    expect(r.take("token_instances:0xa")).toEqual([]);
    expect(r.take("token_instances:0xb")).toEqual([]);
  });

  it("holds at most `max` ids, dropping the oldest", () => {
    const r = new RecentlyFetched(60_000, 3, () => 0);
    r.note("token_instances:0xa", ["1", "2"]);
    r.note("token_instances:0xb", ["3", "4"]);
    expect(r.take("token_instances:0xa")).toEqual(["2"]);
    expect(r.take("token_instances:0xb")).toEqual(["3", "4"]);
  });
});
