import { DEFAULT_GATEWAYS, type Gateways, joinGateway } from "./gateways.js";
import type { TokenMetadata } from "./interpret-document.js";

export type MediaUrls = {
  image_url: string | null;
  animation_url: string | null;
  external_app_url: string | null;
  /** The raw, un-rewritten first non-blank media value (upstream's `media_url`). */
  media_url: string | null;
};

/**
 * Media fields of a token instance, derived as upstream's nft_helper.ex does (spec blockscout-explorer-api.md §3.3
 * "Media fields"), with our configurable gateways (spec README, NFT items). Pure.
 */
export function deriveMediaUrls(
  metadata: TokenMetadata | null | undefined,
  gateways: Partial<Gateways> = NO_GATEWAYS,
): MediaUrls {
  if (!metadata || typeof metadata !== "object") {
    return { image_url: null, animation_url: null, external_app_url: null, media_url: null };
  }
  const gw = withDefaults(gateways);
  const properties = isObject(metadata.properties) ? metadata.properties : undefined;

  let image: string | null = null;
  if (present(metadata.image_url)) image = retrieveImage(metadata.image_url, gw);
  else if (present(metadata.image)) image = retrieveImage(metadata.image, gw);
  else if (properties && present(properties.image)) {
    // Upstream does not rewrite this branch: an object gives its description, a string is kept as is.
    const p = properties.image;
    image = isObject(p) ? asString(p.description) : asString(p);
  }
  if (image !== null && image.trim() === "") image = null;

  const animation = metadata.animation_url === undefined ? null : retrieveImage(metadata.animation_url, gw);

  return {
    image_url: image,
    animation_url: animation,
    external_app_url: externalAppUrl(metadata.external_url),
    media_url: mediaUrl(metadata, properties),
  };
}

const NO_GATEWAYS: Partial<Gateways> = Object.freeze({});

// Pages pass the same gateways object for every item: merge the defaults in once per object.
const merged = new WeakMap<Partial<Gateways>, Gateways>();
function withDefaults(gateways: Partial<Gateways>): Gateways {
  let gw = merged.get(gateways);
  if (!gw) {
    gw = { ...DEFAULT_GATEWAYS, ...gateways };
    merged.set(gateways, gw);
  }
  return gw;
}

/** Upstream `compose_resource_url`: case-insensitive prefixes; anything else unchanged. */
export function composeResourceUrl(url: string, gateways: Gateways): string {
  // Only the scheme's case matters: lower-case the first 12 characters, not a whole (possibly long) URL.
  const lower = url.slice(0, 12).toLowerCase();
  if (lower.startsWith("ipfs://ipfs/")) return joinGateway(gateways.ipfs, url.slice("ipfs://ipfs/".length));
  if (lower.startsWith("ipfs://")) return joinGateway(gateways.ipfs, url.slice("ipfs://".length));
  if (lower.startsWith("ar://")) return joinGateway(gateways.arweave, url.slice("ar://".length));
  if (lower.startsWith("bzz://")) return joinGateway(gateways.swarm, url.slice("bzz://".length));
  return url;
}

/** A list gives its first element, an object its description, a string is normalised and rewritten. */
function retrieveImage(value: unknown, gateways: Gateways): string | null {
  if (Array.isArray(value)) return value.length > 0 ? retrieveImage(value[0], gateways) : null;
  if (isObject(value)) return asString(value.description);
  if (typeof value !== "string") return null;
  if (value.trim() === "") return "";
  return composeResourceUrl(reencode(value), gateways);
}

// Characters encodeURI leaves alone; a string of only these (so no "%") comes out of decode/encode unchanged.
const URI_SAFE = /^[A-Za-z0-9;,/?:@&=+$\-_.!~*'()#]*$/;

/** Upstream's `URI.decode |> URI.encode`: unify the percent-encoding so that "a b" and "a%20b" become equal. */
function reencode(s: string): string {
  // Fast path for the usual URL: rendering a page derives up to 50 of them.
  if (URI_SAFE.test(s)) return s;
  try {
    return encodeURI(decodeURI(s));
  } catch {
    // A stray "%" makes decoding fail; encoding alone still escapes spaces and the like.
    return encodeURI(s);
  }
}

/**
 * Whether the URL parser would surely accept `v` as http(s) with a non-empty host, without running it (a page
 * renders up to 50 of these): letters, digits, "." and "-" in the host, no empty label, no "--" (punycode labels
 * can be invalid), a last label that is not a number (the parser would read an IPv4 address, which can fail), and
 * a path of characters URLs carry as they are. Anything else goes to the parser.
 */
export function isPlainHttpUrl(v: string): boolean {
  if (v.length > 2048) return false;
  const m = PLAIN_HTTP_URL.exec(v);
  if (!m) return false;
  const host = m[1]!;
  if (host.includes("--") || host.includes("..") || host.startsWith(".") || host.endsWith(".")) return false;
  return !NUMERIC_LABEL.test(host.slice(host.lastIndexOf(".") + 1));
}
const PLAIN_HTTP_URL = /^https?:\/\/([A-Za-z0-9.-]+)(?:\/[A-Za-z0-9;,/?:@&=+$\-_.!~*'()#]*)?$/;
const NUMERIC_LABEL = /^(?:0x[0-9a-f]*|[0-9]*)$/i;

function externalAppUrl(value: unknown): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (typeof v !== "string") return null;
  if (isPlainHttpUrl(v)) return v;
  try {
    const url = new URL(v.trim());
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "" ? v.trim() : null;
  } catch {
    return null;
  }
}

function mediaUrl(metadata: TokenMetadata, properties: Record<string, unknown> | undefined): string | null {
  return (
    firstMedia(metadata.image_url) ??
    firstMedia(metadata.image) ??
    firstMedia(properties?.image) ??
    firstMedia(metadata.animation_url)
  );
}

/** A list's first element, an object's description or the value itself, when it is a non-blank string. */
function firstMedia(v: unknown): string | null {
  const s = Array.isArray(v) ? v[0] : isObject(v) ? v.description : v;
  return typeof s === "string" && s.trim() !== "" ? s : null;
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function asString(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}
