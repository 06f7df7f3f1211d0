import { cpus } from "node:os";
import { runCoinBalanceBench, writeCoinBalanceSection } from "./api-coin-balance.js";

/** npm run bench:api: the explorer API benchmarks (coin balance history; NFT to follow), figures to docs/benchmarks.md. */
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}, Node ${process.version}`;
const coin = await runCoinBalanceBench();
writeCoinBalanceSection(coin, machine);
console.log("coin balance history:", JSON.stringify(coin.results));
await import("./api-nft.js").then(async (m) => m.writeNftSection(await m.runNftBench(), machine));
