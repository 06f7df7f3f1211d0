import { cpus } from "node:os";
import { runCoinBalanceBench, writeCoinBalanceSection } from "./api-coin-balance.js";

/**
 * npm run bench:api: the explorer API benchmarks (coin balance history, NFT, address pages), figures to
 * docs/benchmarks.md. `npm run bench:api -- nft` (or `-- coin`, `-- explorer`, `-- plans`, `-- holders`, `-- rpc`, `-- stats`) runs one part only.
 */
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}, Node ${process.version}`;
const only = process.argv.slice(2);
const wants = (part: string) => only.length === 0 || only.includes(part);
if (wants("coin")) {
  const coin = await runCoinBalanceBench();
  writeCoinBalanceSection(coin, machine);
  console.log("coin balance history:", JSON.stringify(coin.results));
}
if (wants("nft"))
  await import("./api-nft.js").then(async (m) => m.writeNftSection(await m.runNftBench(), machine));
if (wants("explorer"))
  await import("./api-explorer.js").then(async (m) =>
    m.writeExplorerSection(await m.runExplorerBench(), machine),
  );
if (wants("plans"))
  await import("./api-explorer-plans.js").then(async (m) => m.writePlansSection(await m.runPlans(), machine));
if (wants("rpc"))
  await import("./api-rpc.js").then(async (m) => m.writeRpcSection(await m.runRpcBench(), machine));
if (wants("stats"))
  await import("./api-stats-service.js").then(async (m) =>
    m.writeStatsServiceSection(await m.runStatsServiceBench(), machine),
  );
if (wants("holders"))
  await import("./api-holders.js").then(async (m) =>
    m.writeHoldersSection(await m.runHoldersBench(), machine),
  );
