import type { NftPage } from "./service.js";

// What JSON.stringify escapes in a string: quote, backslash, control characters and (lone) surrogates. Calling it on
// every one of a page's ~600 short strings costs more than this test.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * The JSON of an /addresses/{h}/nft page, as JSON.stringify would write it, but with each shared object (the
 * owner's address object, repeated in every unique item, and a contract's token object) serialised once per page:
 * they are the same instances on every item (see NftPageContext), and they are most of a page's bytes. Pure.
 */
export function serializeNftPage(page: NftPage): string {
  const shared = new Map<object, string>();
  const once = (v: object | null): string => {
    if (v === null) return "null";
    let s = shared.get(v);
    if (s === undefined) {
      s = JSON.stringify(v);
      shared.set(v, s);
    }
    return s;
  };
  const str = (v: string | null) =>
    v === null ? "null" : NEEDS_ESCAPE.test(v) ? JSON.stringify(v) : `"${v}"`;
  const items = page.items.map(
    (i) =>
      `{"id":${str(i.id)},"metadata":${JSON.stringify(i.metadata)},"owner":${once(i.owner)},"token":${once(i.token)},` +
      `"external_app_url":${str(i.external_app_url)},"animation_url":${str(i.animation_url)},` +
      `"image_url":${str(i.image_url)},"media_url":${str(i.media_url)},"media_type":${str(i.media_type)},` +
      `"thumbnails":${JSON.stringify(i.thumbnails)},"is_unique":${i.is_unique},` +
      `"holder_address_hash":${str(i.holder_address_hash)},"token_type":${str(i.token_type)},"value":${str(i.value)}}`,
  );
  return `{"items":[${items.join(",")}],"next_page_params":${JSON.stringify(page.next_page_params)}}`;
}
