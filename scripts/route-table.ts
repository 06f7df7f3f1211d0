// Writes docs/routes.md: every route the app serves and the file that declares it.
import { writeFileSync } from "node:fs";
import { packagePath } from "../src/util/package-root.js";
import { collectRoutes, ROUTE_TABLE_FILE, renderRouteTable } from "../test/helpers/route-table.js";

const rows = await collectRoutes();
writeFileSync(packagePath(ROUTE_TABLE_FILE), renderRouteTable(rows));
console.log(`${ROUTE_TABLE_FILE}: ${rows.length} routes`);
