// Writes docs/routes.md (every route the app serves and the file that declares it) and the coverage table of
// docs/api-coverage.md (Blockscout's routes for a plain EVM chain against the same list).
import { readFileSync, writeFileSync } from "node:fs";
import { packagePath } from "../src/util/package-root.js";
import {
  COVERAGE_FILE,
  collectRoutes,
  ROUTE_TABLE_FILE,
  renderCoverage,
  renderRouteTable,
  withCoverage,
} from "../test/helpers/route-table.js";

const rows = await collectRoutes();
writeFileSync(packagePath(ROUTE_TABLE_FILE), renderRouteTable(rows));
console.log(`${ROUTE_TABLE_FILE}: ${rows.length} routes`);
// The coverage table of docs/api-coverage.md: Blockscout's routes against the same list.
const coverage = packagePath(COVERAGE_FILE);
writeFileSync(coverage, withCoverage(readFileSync(coverage, "utf8"), renderCoverage(rows)));
console.log(`${COVERAGE_FILE}: coverage table written`);
