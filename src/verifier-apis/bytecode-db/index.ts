import type { VerifierDialect } from "../dialect.js";
import { bytecodeDbError } from "./errors.js";
import { bytecodeDbPlugin } from "./plugin.js";

/**
 * eth-bytecode-db's v2 API under `/api/v2` (`/bytecodes`, `/verifier`). Framework errors under those two subtrees
 * (an unparseable request, a header too large) are its `{code, message}`; the rest of `/api/v2` is the explorer's.
 */
export const bytecodeDb: VerifierDialect = {
  name: "eth-bytecode-db",
  prefix: "/api/v2",
  paths: ["/api/v2/verifier", "/api/v2/bytecodes"],
  plugin: bytecodeDbPlugin,
  error: bytecodeDbError,
};
