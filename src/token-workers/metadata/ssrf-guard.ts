import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { type AllowedHost, bareHostname, isHostAllowed } from "./allow-list.js";
import { type AddressCategory, classifyAddress } from "./ip-ranges.js";
import { type Failure, failure } from "./reasons.js";

/** Schemes a network fetch may use. ipfs:/ar:/data: are resolved to http(s) or inline before this point. */
const FETCHABLE_PROTOCOLS = new Set(["http:", "https:"]);

/** Raised inside the socket's DNS lookup so that the request fails before any connection is made. */
export class ForbiddenAddressError extends Error {
  override name = "ForbiddenAddressError";
  readonly code = "ERR_LOOKOUT_FORBIDDEN_ADDRESS";
  constructor(
    readonly host: string,
    readonly address: string,
    readonly category: AddressCategory,
  ) {
    super(`forbidden address ${address} (${category}) for host ${host}`);
  }
}

export type GuardedTarget = {
  ok: true;
  url: URL;
  /** True when the host is allow-listed: skip the address check. */
  allowListed: boolean;
};

/**
 * Checks what can be checked before connecting: the scheme, and the address when the host is an IP literal (node's
 * `net.connect` never calls `lookup` for literals, so they must be checked here).
 */
export function checkTarget(href: string, allowed: readonly AllowedHost[]): GuardedTarget | Failure {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return failure("invalid_uri", `invalid url ${href}`);
  }
  if (!FETCHABLE_PROTOCOLS.has(url.protocol)) {
    return failure("unsupported_scheme", `unsupported scheme ${url.protocol}`);
  }
  if (url.hostname === "") return failure("invalid_uri", `url without host ${href}`);
  if (url.username || url.password) return failure("invalid_uri", "credentials in url");
  const allowListed = isHostAllowed(url, allowed);
  const host = bareHostname(url);
  if (!allowListed && isIP(host) !== 0) {
    const category = classifyAddress(host);
    if (category !== "public") return failure("forbidden_address", `forbidden address ${host} (${category})`);
  }
  return { ok: true, url, allowListed };
}

export type ResolveAll = (hostname: string, family: number) => Promise<LookupAddress[]>;

const systemResolveAll: ResolveAll = (hostname, family) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, family: family === 4 || family === 6 ? family : 0 }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    );
  });

/**
 * A `lookup` for http.request: resolves the name, refuses it when any resolved address is not public, and hands the
 * socket exactly the addresses it checked, so a second DNS answer (rebinding) can never be used.
 * Refusing on any non-public answer is stricter than picking a public one: a name that mixes both is suspicious.
 */
export function createGuardedLookup(opts: { allowListed: boolean; resolveAll?: ResolveAll }): LookupFunction {
  const resolveAll = opts.resolveAll ?? systemResolveAll;
  return (hostname, options, callback) => {
    resolveAll(hostname, typeof options.family === "number" ? options.family : 0).then(
      (addresses) => {
        if (addresses.length === 0) {
          const err = Object.assign(new Error(`no addresses for ${hostname}`), { code: "ENOTFOUND" });
          return callback(err, "", 0);
        }
        if (!opts.allowListed) {
          for (const a of addresses) {
            const category = classifyAddress(a.address);
            if (category !== "public")
              return callback(new ForbiddenAddressError(hostname, a.address, category), "", 0);
          }
        }
        if (options.all) return callback(null, addresses);
        const first = addresses[0]!;
        callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, "", 0),
    );
  };
}
