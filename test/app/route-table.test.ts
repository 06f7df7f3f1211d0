import { describe, expect, it } from "vitest";
import {
  COVERAGE_FILE,
  collectRoutes,
  committedCoverage,
  committedRouteTable,
  ROUTE_TABLE_FILE,
  renderCoverage,
  renderRouteTable,
  withCoverage,
} from "../helpers/route-table.js";

describe("the route table in docs", () => {
  it(`${ROUTE_TABLE_FILE} lists every served route and its file (regenerate: npm run docs:routes)`, async () => {
    const rows = await collectRoutes();
    expect(rows.length).toBeGreaterThan(50);
    expect(committedRouteTable()).toBe(renderRouteTable(rows));
    // The coverage table is generated from the same list.
    const doc = committedCoverage();
    expect(doc, COVERAGE_FILE).not.toBeNull();
    expect(doc).toBe(withCoverage(doc!, renderCoverage(rows)));
  });
});
