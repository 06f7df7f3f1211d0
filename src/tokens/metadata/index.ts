export { type AllowedHost, isHostAllowed, parseAllowedHosts } from "./allowList.js";
export { type MetadataFetcherConfig, metadataFetcherConfigFromEnv } from "./config.js";
export { type DataUri, parseDataUri } from "./dataUri.js";
export { composeResourceUrl, deriveMediaUrls, type MediaUrls } from "./deriveMediaUrls.js";
export { type FetchDocumentOptions, fetchDocument } from "./fetchDocument.js";
export { type FetchTokenMetadataParameters, fetchTokenMetadata } from "./fetchTokenMetadata.js";
export { DEFAULT_GATEWAYS, type Gateways } from "./gateways.js";
export {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  type HttpGetOptions,
  type HttpResponse,
  httpGet,
} from "./httpGet.js";
export { interpretDocument, type MetadataResult, type TokenMetadata } from "./interpretDocument.js";
export { type AddressCategory, classifyAddress, isPublicAddress } from "./ipRanges.js";
export {
  FAILURE_REASONS,
  type Failure,
  type FailureReason,
  failure,
  REASON_CLASS,
  type RetryClass,
  retryClassOf,
} from "./reasons.js";
export { type ResolvedTokenUri, resolveTokenUri, type TokenId, tokenIdHex } from "./resolveTokenUri.js";
export {
  DEFAULT_RETRY_POLICY,
  nextRetry,
  type RetryDecision,
  type RetryPolicy,
  type RetryState,
  recordFailure,
  requestRefetch,
} from "./retryPolicy.js";
export { checkTarget, createGuardedLookup, ForbiddenAddressError } from "./ssrfGuard.js";
