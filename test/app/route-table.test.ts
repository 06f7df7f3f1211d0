import { describe, expect, it } from "vitest";
import {
  collectRoutes,
  committedRouteTable,
  ROUTE_TABLE_FILE,
  renderRouteTable,
} from "../helpers/route-table.js";

describe("the route table in docs", () => {
  it(`${ROUTE_TABLE_FILE} lists every served route and its file (regenerate: npm run docs:routes)`, async () => {
    const rows = await collectRoutes();
    expect(rows.length).toBeGreaterThan(50);
    expect(committedRouteTable()).toBe(renderRouteTable(rows));
  });
});
