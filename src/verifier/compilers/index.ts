/** Compiler management: lists, downloads, running solc/solc-js/vyper safely, compilation cache. */
export type { CompilationCache } from "./compilation-cache.js";
export {
  canonicalJson,
  compilationKey,
  DiskCache,
  MemoryLruCache,
  TieredCache,
} from "./compilation-cache.js";
export { CompilerError, type CompilerErrorKind } from "./errors.js";
export { ALL_SOLIDITY_EVM_VERSIONS, solidityEvmVersions, vyperEvmVersions } from "./evm-versions.js";
export {
  CompilerRegistry,
  createCompilers,
  DEFAULT_SOLC_LIST_URL,
  DEFAULT_SOLCJS_LIST_URL,
  DEFAULT_VYPER_LIST_URL,
} from "./registry.js";
export type {
  CompileRequest,
  Compiler,
  CompilerLanguage,
  CompilerOutput,
  CompilersConfig,
  CompilerVersionInfo,
  Logger,
  StandardJsonError,
  StandardJsonInput,
} from "./types.js";
export { type CompilerVersion, displayVersion, parseVersion } from "./version.js";
