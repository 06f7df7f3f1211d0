/**
 * The URL with `%3A` in its path decoded to `:`. Blockscout's backend writes the colon of `sources:verify-…`
 * encoded, and the router (find-my-way) never decodes `%3A` in static paths; a query string is left as it is.
 */
export function decodeColonInPath(url: string): string {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (!path.includes("%3")) return url;
  return path.replace(/%3a/gi, ":") + (q === -1 ? "" : url.slice(q));
}
