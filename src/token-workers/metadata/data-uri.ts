/** RFC 2397 `data:` URIs, decoded leniently because on-chain metadata is often sloppily encoded. */

export type DataUri = { mediaType: string; body: Buffer };

export type ParseDataUriResult = { ok: true; value: DataUri } | { ok: false; message: string };

/**
 * Percent-decodes to bytes. A `%` not followed by two hex digits stays literal: on-chain JSON often contains
 * "100%" unescaped, which `decodeURIComponent` would reject outright.
 */
export function percentDecodeToBytes(s: string): Buffer {
  if (!s.includes("%")) return Buffer.from(s, "utf8");
  const parts: Buffer[] = [];
  let literal = "";
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === "%" && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      if (literal) {
        parts.push(Buffer.from(literal, "utf8"));
        literal = "";
      }
      parts.push(Buffer.from([Number.parseInt(s.slice(i + 1, i + 3), 16)]));
      i += 2;
    } else {
      literal += ch;
    }
  }
  if (literal) parts.push(Buffer.from(literal, "utf8"));
  return Buffer.concat(parts);
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

export function parseDataUri(uri: string): ParseDataUriResult {
  if (!/^data:/i.test(uri)) return { ok: false, message: "not a data: URI" };
  const comma = uri.indexOf(",");
  if (comma < 0) return { ok: false, message: "data: URI without a comma" };
  const params = uri
    .slice(5, comma)
    .split(";")
    .map((p) => p.trim());
  const isBase64 = params.length > 1 && params[params.length - 1]!.toLowerCase() === "base64";
  // "data:,foo" means text/plain per RFC 2397; parameters such as utf8 or charset=utf-8 are ignored.
  const mediaType = (params[0] || "text/plain").toLowerCase();
  const payload = uri.slice(comma + 1);
  if (!isBase64) return { ok: true, value: { mediaType, body: percentDecodeToBytes(payload) } };
  const b64 = percentDecodeToBytes(payload).toString("latin1").replace(/\s+/g, "");
  if (!BASE64.test(b64)) return { ok: false, message: "invalid base64 in data: URI" };
  return { ok: true, value: { mediaType, body: Buffer.from(b64, "base64") } };
}
