import type { VerifierDialect } from "../dialect.js";
import { etherscanError } from "./errors.js";
import { etherscanPlugin } from "./plugin.js";

/** The Etherscan-compatible API (`/api`): asynchronous verification for forge and hardhat-verify, lookups. */
export const etherscan: VerifierDialect = {
  name: "etherscan",
  prefix: "",
  paths: ["/api"],
  plugin: etherscanPlugin,
  error: etherscanError,
};
