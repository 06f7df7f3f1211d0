export { type AllowedHost, isHostAllowed, parseAllowedHosts } from "./allow-list.js";
export { type MetadataFetcherConfig, metadataFetcherConfigFromEnv } from "./config.js";
export { type DataUri, parseDataUri } from "./data-uri.js";
export { composeResourceUrl, deriveMediaUrls, type MediaUrls } from "./derive-media-urls.js";
export { type FetchDocumentOptions, fetchDocument } from "./fetch-document.js";
export { type FetchTokenMetadataParameters, fetchTokenMetadata } from "./fetch-token-metadata.js";
export { DEFAULT_GATEWAYS, type Gateways } from "./gateways.js";
export {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  type HttpGetOptions,
  type HttpResponse,
  httpGet,
} from "./http-get.js";
export { interpretDocument, type MetadataResult, type TokenMetadata } from "./interpret-document.js";
export { type AddressCategory, classifyAddress, isPublicAddress } from "./ip-ranges.js";
export {
  FAILURE_REASONS,
  type Failure,
  type FailureReason,
  failure,
  REASON_CLASS,
  type RetryClass,
  retryClassOf,
} from "./reasons.js";
export { type ResolvedTokenUri, resolveTokenUri, type TokenId, tokenIdHex } from "./resolve-token-uri.js";
export {
  DEFAULT_RETRY_POLICY,
  nextRetry,
  type RetryDecision,
  type RetryPolicy,
  type RetryState,
  recordFailure,
  requestRefetch,
} from "./retry-policy.js";
export { checkTarget, createGuardedLookup, ForbiddenAddressError } from "./ssrf-guard.js";
