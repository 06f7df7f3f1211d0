import type { VerifierDialect } from "../dialect.js";
import { apiV1Error } from "./errors.js";
import { apiV1Plugin } from "./plugin.js";

/** Blockscout's proxy verifier (`/api/v1`): synchronous verification, compiler and chain lists. */
export const apiV1: VerifierDialect = {
  name: "api/v1",
  prefix: "/api/v1",
  paths: ["/api/v1"],
  plugin: apiV1Plugin,
  error: apiV1Error,
};
