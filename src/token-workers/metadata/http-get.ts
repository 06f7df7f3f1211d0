import http from "node:http";
import https from "node:https";
import type { AllowedHost } from "./allow-list.js";
import { type Failure, failure, reasonForStatus } from "./reasons.js";
import { checkTarget, createGuardedLookup, type GuardedTarget, type ResolveAll } from "./ssrf-guard.js";

export const DEFAULT_MAX_BYTES = 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Upstream uses recv_timeout 30 s (spec §5 URI handling); we bound the whole fetch, redirects and body included. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export type HttpGetOptions = {
  /** Parsed `METADATA_ALLOWED_HOSTS`: these hosts skip the private-address check. */
  allowedHosts?: readonly AllowedHost[];
  /** Redirects followed (each target re-checked by the guard). Default 5. */
  maxRedirects?: number;
  /** Per hop: connect + response headers. Default 10 s. */
  headersTimeoutMs?: number;
  /** The whole fetch, including redirects and the body (a slow body ends in `timeout`). Default 30 s. */
  timeoutMs?: number;
  /** Body size cap, enforced while streaming. Default 1 MiB. */
  maxBytes?: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** DNS resolution used by the guard (tests inject fake answers). */
  resolveAll?: ResolveAll;
  /** Content types whose body is not needed (media): the request ends after the headers. */
  skipBody?: (contentType: string) => boolean;
};

export type HttpResponse = {
  ok: true;
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** Lower-cased `Content-Type`, "" when absent. */
  contentType: string;
  /** null when `skipBody` said so. */
  body: Buffer | null;
};

type Hop = HttpResponse | { ok: true; redirect: string };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** GET through the SSRF guard, following redirects manually so every hop is checked. Never throws. */
export async function httpGet(href: string, options: HttpGetOptions = {}): Promise<HttpResponse | Failure> {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let current = href;
  for (let redirects = 0; ; redirects++) {
    const target = checkTarget(current, options.allowedHosts ?? []);
    if (!target.ok) return target;
    const hop = await requestOnce(target, deadline, options);
    if (!hop.ok) return hop;
    if (!("redirect" in hop)) return hop;
    if (redirects >= maxRedirects)
      return failure("too_many_redirects", `more than ${maxRedirects} redirects`);
    try {
      current = new URL(hop.redirect, target.url).href;
    } catch {
      return failure("invalid_uri", `invalid redirect location ${hop.redirect}`);
    }
  }
}

function requestOnce(target: GuardedTarget, deadline: number, o: HttpGetOptions): Promise<Hop | Failure> {
  return new Promise((resolve) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return resolve(failure("timeout", "timed out"));
    if (o.signal?.aborted) return resolve(failure("aborted", "aborted"));
    const maxBytes = o.maxBytes ?? DEFAULT_MAX_BYTES;
    const headersTimeoutMs = Math.min(o.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, remaining);

    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const onAbort = () => finish(failure("aborted", "aborted"));
    const finish = (value: Hop | Failure) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      o.signal?.removeEventListener("abort", onAbort);
      // Frees the socket whatever state it is in; also stops a body past the cap or the deadline.
      req.destroy();
      resolve(value);
    };

    const mod = target.url.protocol === "https:" ? https : http;
    const req = mod.request(target.url, {
      method: "GET",
      // A fresh connection per request: a pooled socket would bypass the lookup (and its check) of this request.
      agent: false,
      lookup: createGuardedLookup({
        allowListed: target.allowListed,
        ...(o.resolveAll ? { resolveAll: o.resolveAll } : {}),
      }),
      headers: { "user-agent": "lookout-metadata-fetcher", accept: "*/*", ...o.headers },
    });
    o.signal?.addEventListener("abort", onAbort);
    timers.push(
      setTimeout(
        () => finish(failure("timeout", `no response within ${headersTimeoutMs} ms`)),
        headersTimeoutMs,
      ),
    );
    timers.push(setTimeout(() => finish(failure("timeout", "timed out reading the response")), remaining));
    req.on("error", (err) => finish(networkFailure(err)));
    req.on("response", (res) => {
      clearTimeout(timers[0]);
      const status = res.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status)) {
        const location = res.headers.location;
        return finish(
          location ? { ok: true, redirect: location } : failure("http_status", `${status} without location`),
        );
      }
      if (status < 200 || status > 299)
        return finish(failure(reasonForStatus(status), `request error: ${status}`));
      const contentType = (res.headers["content-type"] ?? "").trim().toLowerCase();
      const url = target.url.href;
      if (o.skipBody?.(contentType)) return finish({ ok: true, url, status, contentType, body: null });
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBytes) {
        return finish(failure("too_large", `content-length ${declared} exceeds ${maxBytes} bytes`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return finish(failure("too_large", `body exceeds ${maxBytes} bytes`));
        chunks.push(chunk);
      });
      res.on("end", () => finish({ ok: true, url, status, contentType, body: Buffer.concat(chunks) }));
      res.on("error", (err) => finish(networkFailure(err)));
      res.on("close", () => {
        if (!res.complete) finish(failure("network", "connection closed before the body ended"));
      });
    });
    req.end();
  });
}

function networkFailure(err: NodeJS.ErrnoException): Failure {
  switch (err.code) {
    case "ERR_LOOKOUT_FORBIDDEN_ADDRESS":
      return failure("forbidden_address", err.message);
    case "ENOTFOUND":
      return failure("dns_not_found", `nxdomain: ${err.message}`);
    case "ECONNREFUSED":
      return failure("connection_refused", `econnrefused: ${err.message}`);
    case "ETIMEDOUT":
      return failure("timeout", err.message);
    default:
      return failure("network", err.code ? `${err.code}: ${err.message}` : err.message);
  }
}
