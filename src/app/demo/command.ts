import type { Address } from "viem";
import { type Config, ConfigError } from "../../config/config.js";
import { createLogger, isTerminal } from "../../util/logger.js";
import { startService } from "../service.js";
import { deployDemo } from "./activity.js";
import { compileDemoContracts } from "./compile.js";

/**
 * `lookout demo`: `lookout start` on a local anvil, plus sample token contracts and activity, so the explorer API
 * shows NFT holdings and balance histories right away. Refuses an external RPC_URL: it sends transactions.
 */
export async function runDemoCommand(config: Config): Promise<number> {
  if (config.rpcUrl)
    throw new ConfigError(
      "RPC_URL: `lookout demo` deploys contracts, so it only runs on its own local chain.",
    );
  const logger = createLogger(config.logLevel);
  const service = await startService(config, { http: true, indexer: true }, logger);
  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    const shutdown = () => {
      if (stopping) return;
      stopping = true;
      service.stop().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.once("SIGINT", shutdown);
    process.once("SIGTERM", shutdown);
    service.done.catch(async () => {
      await service.stop();
      resolve(1);
    });
  });
  try {
    const artifacts = compileDemoContracts();
    const accounts = service.anvil!.accounts.map((a) => a.address as Address);
    const k = await deployDemo(service.anvil!.url, accounts, artifacts, logger);
    const port = config.port;
    const tries = [
      `curl -s http://localhost:${port}/api/v2/addresses/${accounts[0]}/nft | head -c 600`,
      `curl -s http://localhost:${port}/api/v2/addresses/${accounts[1]}/coin-balance-history`,
      `curl -s http://localhost:${port}/api/v2/tokens/${k.nft}`,
    ];
    if (isTerminal())
      process.stdout.write(["", "Demo ready. Try:", ...tries.map((t) => `  ${t}`), ""].join("\n"));
    else logger.info({ try: tries }, "Demo ready");
  } catch (err) {
    logger.error({ err }, "Demo: deploying the sample activity failed (the service keeps running)");
  }
  return stopped;
}
