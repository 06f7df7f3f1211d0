import { type HttpGetOptions, httpGet } from "./http-get.js";
import { interpretDocument, isMediaContentType, type MetadataResult } from "./interpret-document.js";

export type FetchDocumentOptions = Omit<HttpGetOptions, "skipBody"> & {
  /** What `{image}`/`{animation_url}` records for media content; default `url`. Upstream keeps the ipfs:// form. */
  mediaUrl?: string;
};

/** Fetches an http(s) document through the SSRF guard and turns it into a metadata object. Never throws. */
export async function fetchDocument(
  url: string,
  options: FetchDocumentOptions = {},
): Promise<MetadataResult> {
  const { mediaUrl, ...httpOptions } = options;
  const res = await httpGet(url, { ...httpOptions, skipBody: isMediaContentType });
  if (!res.ok) return res;
  return interpretDocument(res.contentType, res.body, mediaUrl ?? url);
}
