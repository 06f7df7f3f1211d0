import { readFileSync } from "node:fs";
import { LookoutError } from "../../errors/base.js";

/** One operator-defined tag of an address (PUBLIC_TAGS_FILE). */
export type PublicTag = {
  name: string;
  slug: string;
  /** Blockscout metadata tag types: name, generic, protocol, classifier, information, note. */
  tagType: string;
  ordinal: number;
  meta: Record<string, unknown>;
};

export type PublicTags = ReadonlyMap<string, readonly PublicTag[]>;

export const NO_TAGS: PublicTags = new Map();

const slugify = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/**
 * Parses the tags file: `{"0xAddress": ["Label", {"name": "Label", "slug"?, "tagType"?, "ordinal"?, "meta"?}, ...]}`.
 * Keys are matched case-insensitively. Pure.
 */
export function parsePublicTags(json: unknown): PublicTags {
  if (!json || typeof json !== "object" || Array.isArray(json))
    throw new LookoutError({
      code: "invalid_tags_file",
      shortMessage: 'PUBLIC_TAGS_FILE must hold a JSON object {"0xaddress": ["tag", ...]}.',
    });
  const out = new Map<string, PublicTag[]>();
  for (const [addr, list] of Object.entries(json as Record<string, unknown>)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(addr) || !Array.isArray(list)) continue;
    const tags: PublicTag[] = [];
    list.forEach((t, i) => {
      if (typeof t === "string" && t.trim()) {
        tags.push({ name: t, slug: slugify(t), tagType: "generic", ordinal: i, meta: {} });
      } else if (t && typeof t === "object" && typeof (t as { name?: unknown }).name === "string") {
        const o = t as Partial<PublicTag> & { name: string };
        tags.push({
          name: o.name,
          slug: typeof o.slug === "string" ? o.slug : slugify(o.name),
          tagType: typeof o.tagType === "string" ? o.tagType : "generic",
          ordinal: typeof o.ordinal === "number" ? o.ordinal : i,
          meta: o.meta && typeof o.meta === "object" ? o.meta : {},
        });
      }
    });
    if (tags.length) out.set(addr.toLowerCase(), tags);
  }
  return out;
}

const cache = new Map<string, PublicTags>();

/** The tags of PUBLIC_TAGS_FILE (read once per path); no file configured → no tags. */
export function loadPublicTags(path: string | undefined): PublicTags {
  if (!path) return NO_TAGS;
  let tags = cache.get(path);
  if (!tags) {
    try {
      tags = parsePublicTags(JSON.parse(readFileSync(path, "utf8")));
    } catch (cause) {
      throw new LookoutError({
        code: "invalid_tags_file",
        shortMessage: `Cannot read the public tags file PUBLIC_TAGS_FILE (${path}).`,
        cause,
      });
    }
    cache.set(path, tags);
  }
  return tags;
}
