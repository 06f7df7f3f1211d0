import { describe, expect, it } from "vitest";
import { deriveMediaUrls, isPlainHttpUrl } from "./derive-media-urls.js";

const CID = "QmYFf7D2UtqnNz8Lu57Gnk3dxgdAiuboPWMEaNNjhr29tS";

describe("deriveMediaUrls()", () => {
  it("matches the spec's example item", () => {
    expect(
      deriveMediaUrls({
        name: "Thing #24950",
        image: `ipfs://${CID}/24950.png`,
        external_url: "https://example.org/nft/24950",
        attributes: [],
      }),
    ).toEqual({
      image_url: `https://ipfs.io/ipfs/${CID}/24950.png`,
      animation_url: null,
      external_app_url: "https://example.org/nft/24950",
      media_url: `ipfs://${CID}/24950.png`,
    });
    expect(deriveMediaUrls({ animation_url: "https://example.org/a.mp4" })).toEqual({
      image_url: null,
      animation_url: "https://example.org/a.mp4",
      external_app_url: null,
      media_url: "https://example.org/a.mp4",
    });
  });

  it("rewrites ipfs://ipfs/, IPFS:// (any case), ar:// and bzz:// through the configured gateways", () => {
    const gw = { ipfs: "https://my.gw/ipfs/", arweave: "https://ar.gw", swarm: "https://swarm.gw/bzz" };
    expect(deriveMediaUrls({ image: `ipfs://ipfs/${CID}` }, gw).image_url).toBe(`https://my.gw/ipfs/${CID}`);
    expect(deriveMediaUrls({ image: `IPFS://${CID}` }, gw).image_url).toBe(`https://my.gw/ipfs/${CID}`);
    expect(deriveMediaUrls({ image: "ar://tx1" }, gw).image_url).toBe("https://ar.gw/tx1");
    expect(deriveMediaUrls({ animation_url: "bzz://abc/x.mp4" }, gw).animation_url).toBe(
      "https://swarm.gw/bzz/abc/x.mp4",
    );
    expect(deriveMediaUrls({ image: "bzz://abc" }).image_url).toBe("https://gateway.ethswarm.org/bzz/abc");
  });

  it("prefers image_url over image over properties.image; lists, objects and blanks as upstream", () => {
    expect(deriveMediaUrls({ image_url: "https://a/1.png", image: "https://b/2.png" }).image_url).toBe(
      "https://a/1.png",
    );
    expect(deriveMediaUrls({ image: ["ipfs://x", "https://y"] }).image_url).toBe("https://ipfs.io/ipfs/x");
    expect(deriveMediaUrls({ image: { description: "https://d/3.png" } }).image_url).toBe("https://d/3.png");
    expect(deriveMediaUrls({ properties: { image: { description: "ipfs://keep" } } }).image_url).toBe(
      "ipfs://keep",
    );
    expect(deriveMediaUrls({ properties: { image: "ipfs://keep" } }).image_url).toBe("ipfs://keep");
    expect(deriveMediaUrls({ image: "  " }).image_url).toBeNull();
    expect(deriveMediaUrls({ image: "https://a/b c.png" }).image_url).toBe("https://a/b%20c.png");
    expect(deriveMediaUrls({ image: "https://a/b%20c.png" }).image_url).toBe("https://a/b%20c.png");
  });

  it("keeps external_url only when it is an http(s) URL with a host", () => {
    expect(deriveMediaUrls({ external_url: ["https://x.example/1", "y"] }).external_app_url).toBe(
      "https://x.example/1",
    );
    expect(deriveMediaUrls({ external_url: "x.example" }).external_app_url).toBeNull();
    expect(deriveMediaUrls({ external_url: "javascript:alert(1)" }).external_app_url).toBeNull();
    expect(deriveMediaUrls({ external_url: "ipfs://abc" }).external_app_url).toBeNull();
  });

  it("returns nulls for missing metadata", () => {
    expect(deriveMediaUrls(null)).toEqual({
      image_url: null,
      animation_url: null,
      external_app_url: null,
      media_url: null,
    });
  });
});

describe("isPlainHttpUrl()", () => {
  // The fast path may only say yes where the URL parser accepts the string as http(s) with a host.
  it("agrees with the URL parser wherever it says yes", () => {
    const hosts = [
      "example.org",
      "a.b.c",
      "1.2.3.4",
      "1.2.3.4.5",
      "a.0x1",
      "xn--abc.com",
      "xn--80ak6aa92e.com",
      "-a.com",
      "a-.com",
      "a..b",
      ".a",
      "a.",
      "localhost",
      "999",
      "a.b9",
      "A.COM",
      "a_b.com",
      "ex ample.com",
    ];
    const tails = ["", "/", "/x?y=1#z", "/a b", "/%zz", "?q", ":8080/", ":99999/", "/ü", "/@user:pw"];
    for (const scheme of ["http://", "https://", "HTTP://", "ftp://", "javascript:"])
      for (const h of hosts)
        for (const t of tails) {
          const v = `${scheme}${h}${t}`;
          if (isPlainHttpUrl(v)) expect(parserAccepts(v), v).toBe(true);
        }
    expect(isPlainHttpUrl("https://example.org/nft/1.png")).toBe(true);
    expect(isPlainHttpUrl("https://1.2.3.4.5/")).toBe(false);
    expect(isPlainHttpUrl(`https://a.com/${"a".repeat(5000)}`)).toBe(false);
  });

  it("leaves results unchanged: fast path and parser give the same external_app_url", () => {
    for (const v of [
      "https://x.example/1",
      "https://a.0x1/",
      "https://xn--a.com/",
      "https://1.2.3.4.5",
      "http://a..b/",
    ])
      expect(deriveMediaUrls({ external_url: v }).external_app_url).toBe(parserAccepts(v) ? v : null);
  });
});

/** The URL parser's answer: http(s) with a non-empty host. */
function parserAccepts(v: string): boolean {
  try {
    const u = new URL(v.trim());
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}
