import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type AllowedHost, parseAllowedHosts } from "./allow-list.js";
import { fetchDocument } from "./fetch-document.js";
import { fetchTokenMetadata } from "./fetch-token-metadata.js";
import { httpGet } from "./http-get.js";
import { nextRetry } from "./retry-policy.js";

const CID = "QmYFf7D2UtqnNz8Lu57Gnk3dxgdAiuboPWMEaNNjhr29tS";
const GOOD = { name: "Thing #1", image: `ipfs://${CID}/1.png`, description: "{id} here" };

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function startServer(
  routes: Record<string, Route>,
): Promise<{ server: http.Server; base: string; port: number }> {
  const server = http.createServer((req, res) => {
    const route = routes[(req.url ?? "/").split("?")[0]!];
    if (route) return route(req, res);
    res.writeHead(404).end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, base: `http://127.0.0.1:${port}`, port };
}

async function stop(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

let origin: Awaited<ReturnType<typeof startServer>>;
let other: Awaited<ReturnType<typeof startServer>>;
let gateway: Awaited<ReturnType<typeof startServer>>;
let allowed: AllowedHost[];
const requests: string[] = [];

beforeAll(async () => {
  // A second, NOT allow-listed server: the target of redirects that must be refused.
  other = await startServer({
    "/secret": (_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end('{"secret":true}'),
  });
  origin = await startServer({
    "/good.json": (req, res) => {
      requests.push(req.headers["user-agent"] ?? "");
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(GOOD));
    },
    "/plain.txt": (_req, res) =>
      res.writeHead(200, { "content-type": "text/plain" }).end('\uFEFF{"name":"plain"}'),
    "/broken.json": (_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end('{"name": "x",'),
    "/array.json": (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("[1,2]"),
    "/string.json": (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('"x"'),
    "/html": (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html></html>"),
    "/error500": (_req, res) => res.writeHead(503).end("busy"),
    "/ratelimited": (_req, res) => res.writeHead(429).end(),
    "/big-declared": (_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(2 * 1024 * 1024) });
      res.end(Buffer.alloc(2 * 1024 * 1024, 0x20));
    },
    "/big-chunked": (_req, res) => {
      // No content-length: the cap must be enforced while streaming.
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 4 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end("{}");
      };
      pump();
    },
    "/slow-body": (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"name":');
      // ...and never finish.
    },
    "/slow-headers": () => {
      // Never answer.
    },
    "/image": (_req, res) =>
      res.writeHead(200, { "content-type": "image/png" }).end(Buffer.alloc(3 * 1024 * 1024)),
    "/video": (_req, res) => res.writeHead(200, { "content-type": "video/mp4" }).end(),
    "/redirect-good": (_req, res) => res.writeHead(302, { location: "/good.json" }).end(),
    "/redirect-loopback": (_req, res) => res.writeHead(302, { location: `${other.base}/secret` }).end(),
    "/redirect-private": (_req, res) => res.writeHead(301, { location: "http://10.0.0.1/secret" }).end(),
    "/redirect-metadata": (_req, res) =>
      res.writeHead(307, { location: "http://169.254.169.254/latest/meta-data/" }).end(),
    "/redirect-file": (_req, res) => res.writeHead(302, { location: "file:///etc/passwd" }).end(),
    "/redirect-rebind": (_req, res) =>
      res.writeHead(302, { location: `http://rebind.test:${other.port}/secret` }).end(),
    "/loop": (_req, res) => res.writeHead(302, { location: "/loop" }).end(),
    "/cut": (req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"name":');
      setTimeout(() => req.socket.destroy(), 20);
    },
  });
  gateway = await startServer({
    [`/ipfs/${CID}/1.json`]: (_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end('{"name":"from ipfs"}'),
    [`/ipfs/${CID}/1.png`]: (_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(),
    "/ar/tx-1": (_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end('{"name":"from ar"}'),
  });
  // host:port entries, so the other local server stays forbidden although it is on 127.0.0.1 too.
  allowed = parseAllowedHosts(`127.0.0.1:${origin.port},127.0.0.1:${gateway.port}`);
});

afterAll(async () => {
  await Promise.all([stop(origin.server), stop(other.server), stop(gateway.server)]);
});

const opts = () => ({
  allowedHosts: allowed,
  gateways: { ipfs: `${gateway.base}/ipfs`, arweave: `${gateway.base}/ar/` },
});

describe("fetchTokenMetadata() against a local server", () => {
  it("stores a good document, substituting {id} in the URI and in the metadata", async () => {
    const r = await fetchTokenMetadata({
      ...opts(),
      tokenUri: `${origin.base}/good.json?id={id}`,
      tokenId: 1n,
    });
    expect(r).toEqual({ ok: true, metadata: { ...GOOD, description: `${"0".repeat(63)}1 here` } });
    expect(requests.at(-1)).toBe("lookout-metadata-fetcher");
  });

  it("accepts a JSON object served as text/plain (with a BOM)", async () => {
    const r = await fetchTokenMetadata({ ...opts(), tokenUri: `${origin.base}/plain.txt`, tokenId: 1 });
    expect(r).toEqual({ ok: true, metadata: { name: "plain" } });
  });

  it.each([
    ["/broken.json", "invalid_json", false],
    ["/html", "invalid_json", false],
    ["/array.json", "not_an_object", false],
    ["/string.json", "not_an_object", false],
    ["/missing", "http_404", false],
    ["/error500", "http_5xx", true],
    ["/ratelimited", "http_429", true],
    ["/big-declared", "too_large", false],
    ["/big-chunked", "too_large", false],
    ["/loop", "too_many_redirects", true],
    ["/cut", "network", true],
  ])("%s fails with %s", async (path, reason, retryable) => {
    const r = await fetchTokenMetadata({ ...opts(), tokenUri: `${origin.base}${path}`, tokenId: 1 });
    expect(r).toMatchObject({ ok: false, reason, retryable });
  });

  it("records the failure the spec prescribes: 404 is permanent and given up after 9 retries", async () => {
    const r = await fetchTokenMetadata({ ...opts(), tokenUri: `${origin.base}/missing`, tokenId: 1 });
    expect(r).toMatchObject({ ok: false, reason: "http_404", message: "request error: 404" });
    if (r.ok) throw new Error("unreachable");
    expect(nextRetry(10, r.reason, new Date()).giveUp).toBe(false);
    expect(nextRetry(11, r.reason, new Date()).giveUp).toBe(true);
  });

  it("honours a smaller size cap", async () => {
    const r = await fetchTokenMetadata({
      ...opts(),
      tokenUri: `${origin.base}/good.json`,
      tokenId: 1,
      maxBytes: 10,
    });
    expect(r).toMatchObject({ ok: false, reason: "too_large" });
  });

  it("times out a slow body and a server that never answers", async () => {
    const t0 = Date.now();
    const body = await fetchTokenMetadata({
      ...opts(),
      tokenUri: `${origin.base}/slow-body`,
      tokenId: 1,
      timeoutMs: 300,
    });
    expect(body).toMatchObject({ ok: false, reason: "timeout", retryable: true });
    const headers = await fetchTokenMetadata({
      ...opts(),
      tokenUri: `${origin.base}/slow-headers`,
      tokenId: 1,
      headersTimeoutMs: 200,
    });
    expect(headers).toMatchObject({ ok: false, reason: "timeout" });
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it("turns image/* into {image: url} and video/* into {animation_url: url} without reading the body", async () => {
    expect(
      await fetchTokenMetadata({ ...opts(), tokenUri: `${origin.base}/image`, tokenId: 1, maxBytes: 100 }),
    ).toEqual({
      ok: true,
      metadata: { image: `${origin.base}/image` },
    });
    expect(await fetchTokenMetadata({ ...opts(), tokenUri: `${origin.base}/video`, tokenId: 1 })).toEqual({
      ok: true,
      metadata: { animation_url: `${origin.base}/video` },
    });
  });

  it("follows a redirect between allowed URLs", async () => {
    const r = await fetchTokenMetadata({ ...opts(), tokenUri: `${origin.base}/redirect-good`, tokenId: 1 });
    expect(r).toMatchObject({ ok: true, metadata: { name: "Thing #1" } });
  });

  it("refuses redirects to loopback, private, link-local, DNS-rebound and file: targets", async () => {
    const resolveAll = async (host: string) =>
      host === "rebind.test"
        ? [{ address: "127.0.0.1", family: 4 }]
        : [{ address: "93.184.216.34", family: 4 }];
    for (const [path, reason] of [
      ["/redirect-loopback", "forbidden_address"],
      ["/redirect-private", "forbidden_address"],
      ["/redirect-metadata", "forbidden_address"],
      ["/redirect-rebind", "forbidden_address"],
      ["/redirect-file", "unsupported_scheme"],
    ] as const) {
      const r = await fetchTokenMetadata({
        ...opts(),
        resolveAll,
        tokenUri: `${origin.base}${path}`,
        tokenId: 1,
      });
      expect(r, path).toMatchObject({ ok: false, reason, retryable: false });
    }
  });

  it("fetches ipfs:// through the configured (local) gateway; media keep the ipfs:// form", async () => {
    expect(await fetchTokenMetadata({ ...opts(), tokenUri: `ipfs://${CID}/1.json`, tokenId: 1 })).toEqual({
      ok: true,
      metadata: { name: "from ipfs" },
    });
    expect(await fetchTokenMetadata({ ...opts(), tokenUri: `ipfs://ipfs/${CID}/1.png`, tokenId: 1 })).toEqual(
      {
        ok: true,
        metadata: { image: `ipfs://ipfs/${CID}/1.png` },
      },
    );
    expect(
      await fetchTokenMetadata({ ...opts(), tokenUri: `ipfs://${CID}/2.json`, tokenId: 1 }),
    ).toMatchObject({
      ok: false,
      reason: "http_404",
    });
  });

  it("fetches ar:// through the configured Arweave gateway", async () => {
    expect(await fetchTokenMetadata({ ...opts(), tokenUri: "ar://tx-1", tokenId: 1 })).toEqual({
      ok: true,
      metadata: { name: "from ar" },
    });
  });

  it("sends the IPFS gateway headers only to the gateway", async () => {
    let seen: string | undefined;
    const gw = await startServer({
      [`/ipfs/${CID}`]: (req, res) => {
        seen = req.headers.authorization;
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      },
    });
    try {
      const r = await fetchTokenMetadata({
        tokenUri: CID,
        tokenId: 1,
        gateways: { ipfs: `${gw.base}/ipfs` },
        allowedHosts: parseAllowedHosts(`127.0.0.1:${gw.port}`),
        ipfsGatewayHeaders: { authorization: "Bearer t" },
      });
      expect(r).toEqual({ ok: true, metadata: {} });
      expect(seen).toBe("Bearer t");
    } finally {
      await stop(gw.server);
    }
  });
});

describe("fetchTokenMetadata() with data: URIs", () => {
  const json = { name: "On chain #7", image: "data:image/svg+xml;base64,PHN2Zy8+", note: "50% off & {id}" };
  const text = JSON.stringify(json);
  const expected = { ...json, note: `50% off & ${"0".repeat(63)}7` };

  it.each([
    ["plain", `data:application/json,${text}`],
    ["utf8", `data:application/json;utf8,${text}`],
    ["percent-encoded", `data:application/json;charset=utf-8,${encodeURIComponent(text)}`],
    ["base64", `data:application/json;base64,${Buffer.from(text).toString("base64")}`],
  ])("%s", async (_name, tokenUri) => {
    expect(await fetchTokenMetadata({ tokenUri, tokenId: 7 })).toEqual({ ok: true, metadata: expected });
  });

  it("rejects broken and non-object documents, and applies the size cap", async () => {
    expect(await fetchTokenMetadata({ tokenUri: "data:application/json,{nope", tokenId: 1 })).toMatchObject({
      reason: "invalid_json",
    });
    expect(await fetchTokenMetadata({ tokenUri: "data:application/json,[1]", tokenId: 1 })).toMatchObject({
      reason: "not_an_object",
    });
    expect(
      await fetchTokenMetadata({ tokenUri: "data:application/json;base64,!!", tokenId: 1 }),
    ).toMatchObject({
      reason: "invalid_data_uri",
    });
    expect(
      await fetchTokenMetadata({
        tokenUri: `data:application/json,{"a":"${"x".repeat(100)}"}`,
        tokenId: 1,
        maxBytes: 50,
      }),
    ).toMatchObject({ reason: "too_large" });
    expect(await fetchTokenMetadata({ tokenUri: "data:image/svg+xml;base64,PHN2Zy8+", tokenId: 1 })).toEqual({
      ok: true,
      metadata: { image: "data:image/svg+xml;base64,PHN2Zy8+" },
    });
  });
});

describe("SSRF guard", () => {
  it("refuses 127.0.0.1 when not allow-listed (and localhost by name)", async () => {
    for (const tokenUri of [`${origin.base}/good.json`, `http://localhost:${origin.port}/good.json`]) {
      const r = await fetchTokenMetadata({ tokenUri, tokenId: 1 });
      expect(r, tokenUri).toMatchObject({ ok: false, reason: "forbidden_address", retryable: false });
    }
    // A bare-host entry allows every port of that host.
    const r = await fetchTokenMetadata({
      tokenUri: `${origin.base}/good.json`,
      tokenId: 1,
      allowedHosts: parseAllowedHosts("127.0.0.1"),
    });
    expect(r.ok).toBe(true);
  });

  it("refuses 10.x, 169.254.x, [::1], ::ffff:127.0.0.1 and 0.0.0.0 without any connection attempt", async () => {
    const spy = vi.spyOn(http, "request");
    try {
      for (const url of [
        "http://10.0.0.1/x.json",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/x",
        "http://[::ffff:127.0.0.1]/x",
        "http://0.0.0.0/x",
        "http://100.64.1.1/x",
        "http://0x7f.1/x", // WHATWG URL normalises this to 127.0.0.1
      ]) {
        expect(await fetchDocument(url), url).toMatchObject({ ok: false, reason: "forbidden_address" });
      }
      expect(spy).not.toHaveBeenCalled();
      // The spy does see real requests, so the assertion above means something.
      await fetchDocument(`${origin.base}/good.json`, { allowedHosts: allowed });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it("refuses names that resolve to private addresses before connecting", async () => {
    const resolveAll = async () => [
      { address: "8.8.8.8", family: 4 },
      { address: "10.1.2.3", family: 4 },
    ];
    const r = await httpGet("http://mixed.test/x", { resolveAll });
    expect(r).toMatchObject({ ok: false, reason: "forbidden_address" });
  });

  it("refuses file:// and gopher:// even when the host is allow-listed", async () => {
    const allowedHosts = parseAllowedHosts("127.0.0.1,localhost");
    for (const tokenUri of ["file:///etc/passwd", "gopher://127.0.0.1:70/", "file://localhost/etc/passwd"]) {
      expect(await fetchTokenMetadata({ tokenUri, tokenId: 1, allowedHosts }), tokenUri).toMatchObject({
        ok: false,
        reason: "unsupported_scheme",
      });
    }
    expect(await fetchDocument("gopher://127.0.0.1/", { allowedHosts })).toMatchObject({
      reason: "unsupported_scheme",
    });
  });

  it("reports unknown names and refused connections", async () => {
    expect(await httpGet("http://does-not-exist.invalid/x")).toMatchObject({
      ok: false,
      reason: "dns_not_found",
    });
    // Port 1 on an allow-listed loopback: nothing listens there.
    expect(
      await httpGet("http://127.0.0.1:1/x", { allowedHosts: parseAllowedHosts("127.0.0.1") }),
    ).toMatchObject({
      ok: false,
      reason: "connection_refused",
    });
  });

  it("stops when the caller aborts", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const r = await httpGet(`${origin.base}/slow-headers`, { allowedHosts: allowed, signal: ac.signal });
    expect(r).toMatchObject({ ok: false, reason: "aborted" });
  });
});
