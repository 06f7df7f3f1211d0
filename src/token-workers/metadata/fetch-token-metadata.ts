import { fetchDocument } from "./fetch-document.js";
import { DEFAULT_GATEWAYS, type Gateways } from "./gateways.js";
import { DEFAULT_MAX_BYTES, type HttpGetOptions } from "./http-get.js";
import { interpretDocument, type MetadataResult, type TokenMetadata } from "./interpret-document.js";
import { failure } from "./reasons.js";
import { resolveTokenUri, type TokenId, tokenIdHex } from "./resolve-token-uri.js";

export type FetchTokenMetadataParameters = Omit<HttpGetOptions, "skipBody" | "headers"> & {
  /** The string returned by tokenURI(id) / uri(id). */
  tokenUri: string;
  tokenId: TokenId;
  gateways?: Partial<Pick<Gateways, "ipfs" | "arweave">>;
  /** Extra headers for requests to the IPFS gateway (e.g. an auth token, as upstream allows). */
  ipfsGatewayHeaders?: Record<string, string>;
};

/**
 * URI → document → metadata object. Never throws: `{ok: true, metadata}` or a `Failure` with a reason code, a
 * message and a retryable hint (feed `reason` to `nextRetry`).
 */
export async function fetchTokenMetadata(p: FetchTokenMetadataParameters): Promise<MetadataResult> {
  const { tokenUri, tokenId, gateways, ipfsGatewayHeaders, ...httpOptions } = p;
  const gw = { ...DEFAULT_GATEWAYS, ...gateways };
  const resolved = resolveTokenUri(tokenUri, tokenId, gw);
  if (!resolved.ok) return resolved;

  let result: MetadataResult;
  if (resolved.kind === "inline") {
    const maxBytes = httpOptions.maxBytes ?? DEFAULT_MAX_BYTES;
    if (resolved.body.length > maxBytes) {
      return failure(
        "too_large",
        `inline document of ${resolved.body.length} bytes exceeds ${maxBytes} bytes`,
      );
    }
    result = interpretDocument(resolved.contentType, resolved.body, resolved.originalUri);
  } else {
    result = await fetchDocument(resolved.url, {
      ...httpOptions,
      ...(resolved.via === "ipfs" && ipfsGatewayHeaders ? { headers: ipfsGatewayHeaders } : {}),
      mediaUrl: resolved.originalUri,
    });
  }
  if (!result.ok) return result;
  // EIP-1155: clients replace {id} inside the metadata too (upstream does the same for the JSON it stores).
  const hex = tokenIdHex(tokenId)!;
  return { ok: true, metadata: substituteId(result.metadata, hex) as TokenMetadata };
}

function substituteId(value: unknown, hex: string): unknown {
  if (typeof value === "string") return value.includes("{id}") ? value.replaceAll("{id}", hex) : value;
  if (Array.isArray(value)) return value.map((v) => substituteId(v, hex));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteId(v, hex)]));
  }
  return value;
}
