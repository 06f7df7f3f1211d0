import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { packagePath } from "../../src/util/package-root.js";
import {
  apiActionRows,
  COVERAGE_FILE,
  collectRoutes,
  committedCoverage,
  committedRouteTable,
  coverageCounts,
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
    // The README states the same counts (routes, actions, eth-rpc methods).
    const readme = readFileSync(packagePath("README.md"), "utf8").replace(/\s+/g, " ");
    const counts = coverageCounts(rows);
    expect(readme).toContain(`routes for a plain EVM chain ${counts.routes} are served`);
    expect(readme).toContain(`${counts.actions} actions`);
    expect(readme).toContain(`${counts.methods} \`/api/eth-rpc\` methods`);
  });

  it("names, for every /api module and action, a file that exists", () => {
    const rows = apiActionRows();
    expect(rows.length).toBeGreaterThan(30);
    expect(rows.filter((r) => !existsSync(packagePath(r.file)))).toEqual([]);
  });
});
