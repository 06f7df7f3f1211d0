import { type ParseDataUriResult, parseDataUri } from "./data-uri.js";
import { type Gateways, isCid, joinGateway } from "./gateways.js";
import { type Failure, failure } from "./reasons.js";

export type TokenId = bigint | number | string;

/** A document carried by the URI itself (data: URI, or raw JSON returned by tokenURI). */
export type InlineDocument = {
  ok: true;
  kind: "inline";
  contentType: string;
  body: Buffer;
  /** The URI after `{id}` substitution; becomes `image`/`animation_url` when the content is media. */
  originalUri: string;
};

/** A document to GET over http(s). */
export type RemoteDocument = {
  ok: true;
  kind: "remote";
  /** http(s) URL to fetch (gateway already applied). */
  url: string;
  /** The URI after `{id}` substitution, e.g. `ipfs://…`; upstream stores this form for media content. */
  originalUri: string;
  via: "http" | "ipfs" | "ar";
};

export type ResolvedTokenUri = InlineDocument | RemoteDocument;

/** `{id}` per EIP-1155: the id as 64 lower-case hex digits, no 0x. */
export function tokenIdHex(tokenId: TokenId): string | undefined {
  let id: bigint;
  try {
    id = typeof tokenId === "bigint" ? tokenId : BigInt(tokenId);
  } catch {
    return undefined;
  }
  if (id < 0n || id >= 1n << 256n) return undefined;
  return id.toString(16).padStart(64, "0");
}

const ID_PLACEHOLDER = /\{id\}/g;
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * Turns a tokenURI/uri result into something fetchable. Pure. Upstream shapes handled (spec
 * blockscout-explorer-api.md §5 "URI handling"): data: (plain, percent-encoded, base64), ipfs://, ipfs://ipfs/,
 * `ipfs/<cid>`, bare CIDv0/CIDv1, `https://any-gateway/ipfs/<cid>/…` (rewritten to our gateway, issue #10150),
 * ar://, http(s)://, a quoted URI, and raw JSON. Every other scheme is rejected.
 */
export function resolveTokenUri(
  uri: string,
  tokenId: TokenId,
  gateways: Pick<Gateways, "ipfs" | "arweave">,
): ResolvedTokenUri | Failure {
  const hex = tokenIdHex(tokenId);
  if (hex === undefined) return failure("invalid_token_id", `invalid token id ${String(tokenId)}`);
  let u = uri.trim();
  // Some contracts return the URI wrapped in single quotes; upstream takes what is inside.
  if (u.startsWith("'")) u = u.slice(1).split("'")[0]!.trim();
  if (u === "") return failure("no_uri", "no uri");
  if (u.startsWith("{")) {
    return {
      ok: true,
      kind: "inline",
      contentType: "application/json",
      body: Buffer.from(u, "utf8"),
      originalUri: u,
    };
  }
  if (/^data:/i.test(u)) {
    // Substituting inside a data: document would corrupt it; upstream substitutes in the parsed JSON instead.
    const parsed: ParseDataUriResult = parseDataUri(u);
    if (!parsed.ok) return failure("invalid_data_uri", parsed.message);
    return {
      ok: true,
      kind: "inline",
      contentType: parsed.value.mediaType,
      body: parsed.value.body,
      originalUri: u,
    };
  }
  u = u.replace(ID_PLACEHOLDER, hex);

  const scheme = SCHEME.exec(u)?.[1]?.toLowerCase();
  if (scheme === "ipfs") {
    const rest = u.slice("ipfs://".length).replace(/^\/*ipfs\//i, "");
    if (!/^ipfs:\/\//i.test(u) || rest === "") return failure("invalid_uri", `invalid ipfs uri ${u}`);
    return { ok: true, kind: "remote", url: joinGateway(gateways.ipfs, rest), originalUri: u, via: "ipfs" };
  }
  if (scheme === "ar") {
    const rest = u.slice("ar://".length);
    if (!/^ar:\/\//i.test(u) || rest === "") return failure("invalid_uri", `invalid ar uri ${u}`);
    return { ok: true, kind: "remote", url: joinGateway(gateways.arweave, rest), originalUri: u, via: "ar" };
  }
  if (scheme === "http" || scheme === "https") {
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      return failure("invalid_uri", `invalid url ${u}`);
    }
    if (url.hostname === "") return failure("invalid_uri", `url without host ${u}`);
    const cidPath = ipfsGatewayPath(url);
    if (cidPath !== undefined && !isSameGateway(url, gateways.ipfs)) {
      return {
        ok: true,
        kind: "remote",
        url: joinGateway(gateways.ipfs, cidPath),
        originalUri: u,
        via: "ipfs",
      };
    }
    return { ok: true, kind: "remote", url: url.href, originalUri: u, via: "http" };
  }
  if (scheme !== undefined) return failure("unsupported_scheme", `unsupported scheme ${scheme}:`);
  // Scheme-less forms: "ipfs/<cid>/…", "/ipfs/<cid>/…" or a bare CID (optionally with a path).
  const bare = u.replace(/^\/?ipfs\//i, "");
  const first = bare.split(/[/?#]/)[0]!;
  if (isCid(first)) {
    return {
      ok: true,
      kind: "remote",
      url: joinGateway(gateways.ipfs, bare),
      originalUri: `ipfs://${bare}`,
      via: "ipfs",
    };
  }
  return failure("invalid_uri", `unknown metadata uri format ${u}`);
}

/** `<cid>/<rest>` when the URL is a path-style IPFS gateway URL (`…/ipfs/<cid>/…`). */
function ipfsGatewayPath(url: URL): string | undefined {
  const m = /\/ipfs\/([^/?#]+)(.*)$/.exec(url.pathname);
  if (!m || !isCid(m[1]!)) return undefined;
  return `${m[1]}${m[2]}${url.search}`;
}

function isSameGateway(url: URL, gateway: string): boolean {
  try {
    return new URL(gateway).origin === url.origin;
  } catch {
    return false;
  }
}
