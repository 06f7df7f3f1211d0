import { describe, expect, it } from "vitest";
import { chainPart } from "./migrate.js";

describe("chainPart()", () => {
  it("keeps a migration's chain statements (the default) and drops its shared ones", () => {
    const sql = [
      "create table a (x int);",
      "-- scope: shared",
      "alter table verified_contracts add column y int;",
      "-- scope: chain",
      "create index a_x on a (x);",
    ].join("\n");
    expect(chainPart(sql).split("\n")).toEqual(["create table a (x int);", "create index a_x on a (x);"]);
    expect(chainPart("-- scope: shared\ncreate table s (x int);").trim()).toBe("");
  });
});
