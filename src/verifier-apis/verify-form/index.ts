import { blockscoutError } from "../../explorer/errors.js";
import type { VerifierDialect } from "../dialect.js";
import { verifyFormPlugin } from "./plugin.js";

/**
 * The Blockscout frontend's verify form under `/api/v2` (`/smart-contracts/…/verification`). It speaks
 * Blockscout's dialect, the explorer's: framework errors anywhere under `/api/v2` come out in it.
 */
export const verifyForm: VerifierDialect = {
  name: "api/v2",
  prefix: "/api/v2",
  paths: ["/api/v2"],
  plugin: verifyFormPlugin,
  error: blockscoutError,
};
