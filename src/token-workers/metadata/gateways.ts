/** Gateways that turn content-addressed URIs into HTTP URLs. */
export type Gateways = {
  /** `IPFS_GATEWAY_URL`, e.g. `https://ipfs.io/ipfs`; `<cid>/<path>` is appended. */
  ipfs: string;
  /** `ARWEAVE_GATEWAY_URL`, e.g. `https://arweave.net`; the transaction id is appended. */
  arweave: string;
  /** Swarm gateway for `bzz://` in media fields (upstream's fixed default; no env var in the spec). */
  swarm: string;
};

export const DEFAULT_GATEWAYS: Readonly<Gateways> = Object.freeze({
  ipfs: "https://ipfs.io/ipfs",
  arweave: "https://arweave.net",
  swarm: "https://gateway.ethswarm.org/bzz",
});

/** Joins a gateway base and a path with exactly one slash, whatever trailing/leading slashes either has. */
export function joinGateway(base: string, path: string): string {
  // Index scans rather than regular expressions: rendering a page of NFTs joins up to 100 of these.
  let end = base.length;
  while (end > 0 && base.charCodeAt(end - 1) === 47) end--;
  let start = 0;
  while (start < path.length && path.charCodeAt(start) === 47) start++;
  return `${end === base.length ? base : base.slice(0, end)}/${start === 0 ? path : path.slice(start)}`;
}

// CIDv0: base58btc multihash, always "Qm" + 44 characters. CIDv1: multibase "b" (base32 lower) as produced by
// current tooling (bafy…, bafk…); upstream recognises the same two shapes.
const CID_V0 = /^Qm[1-9A-HJ-NP-Za-km-z]{44}$/;
const CID_V1 = /^b[a-z2-7]{58,}$/;

export function isCid(s: string): boolean {
  return CID_V0.test(s) || CID_V1.test(s);
}
