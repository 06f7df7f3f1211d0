import type { VerifierDialect } from "../dialect.js";
import { sourcifyError } from "./errors.js";
import { sourcifyPlugin } from "./plugin.js";

/** The Sourcify-v2-compatible API (`/sourcify`): verification jobs, their status, contract lookup. */
export const sourcify: VerifierDialect = {
  name: "sourcify",
  prefix: "/sourcify",
  paths: ["/sourcify"],
  plugin: sourcifyPlugin,
  error: sourcifyError,
};
