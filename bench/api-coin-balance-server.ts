import { createServer } from "node:http";
import { buildApp } from "../src/app/http-app.js";
import { createPostgresDb } from "../src/db/pg.js";
import { coinBalancePage } from "../src/explorer/coin-balance/query.js";
import { COIN_BALANCE_PAGE_SIZE, coinBalanceHistory } from "../src/explorer/coin-balance/view.js";

/**
 * The two servers bench:api compares, each run in its own process: `lookout` is the real application
 * (Fastify, schemas, validation, error dialect); `baseline` is the same SQL on the same driver and pool size
 * behind bare node:http, with no validation, building the same JSON.
 */
const [kind, databaseUrl] = process.argv.slice(2);
const db = await createPostgresDb(databaseUrl!, { max: 10 });
let port: number;
if (kind === "lookout") {
  const app = await buildApp({ db, config: { bodyLimit: 1e6 }, logger: false });
  await app.listen({ port: 0, host: "127.0.0.1" });
  port = (app.server.address() as { port: number }).port;
} else {
  const route = /^\/api\/v2\/addresses\/(0x[0-9a-fA-F]{40})\/coin-balance-history(?:\?block_number=(\d+))?/;
  const server = createServer(async (req, res) => {
    const m = route.exec(req.url ?? "");
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    const rows = await coinBalancePage(
      db,
      m[1]!.toLowerCase() as `0x${string}`,
      m[2] ? Number(m[2]) : null,
      COIN_BALANCE_PAGE_SIZE + 1,
    );
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(coinBalanceHistory(rows)));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as { port: number }).port;
}
process.send?.({ port });
