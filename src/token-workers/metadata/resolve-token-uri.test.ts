import { describe, expect, it } from "vitest";
import { parseDataUri, percentDecodeToBytes } from "./data-uri.js";
import { resolveTokenUri, tokenIdHex } from "./resolve-token-uri.js";

const gw = { ipfs: "https://gw.example/ipfs/", arweave: "https://ar.example" };
const CID0 = "QmYFf7D2UtqnNz8Lu57Gnk3dxgdAiuboPWMEaNNjhr29tS";
const CID1 = "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi";

describe("tokenIdHex()", () => {
  it("pads to 64 lower-case hex digits", () => {
    expect(tokenIdHex(255n)).toBe(`${"0".repeat(62)}ff`);
    expect(tokenIdHex("314592")).toBe("000000000000000000000000000000000000000000000000000000000004cce0");
    expect(tokenIdHex(-1n)).toBeUndefined();
    expect(tokenIdHex(1n << 256n)).toBeUndefined();
    expect(tokenIdHex("abc")).toBeUndefined();
  });
});

describe("resolveTokenUri()", () => {
  it("substitutes {id} (ERC-1155) with 64 lower-case hex digits", () => {
    const r = resolveTokenUri("https://api.example/t/{id}.json", 0xabn, gw);
    expect(r).toMatchObject({
      ok: true,
      kind: "remote",
      via: "http",
      url: `https://api.example/t/${"0".repeat(62)}ab.json`,
    });
  });

  it("maps ipfs://, ipfs://ipfs/, ipfs/<cid> and bare CIDs to the gateway, keeping ipfs:// as the original", () => {
    expect(resolveTokenUri(`ipfs://${CID0}/1.json`, 1, gw)).toMatchObject({
      kind: "remote",
      via: "ipfs",
      url: `https://gw.example/ipfs/${CID0}/1.json`,
      originalUri: `ipfs://${CID0}/1.json`,
    });
    expect(resolveTokenUri(`ipfs://ipfs/${CID0}/1.json`, 1, gw)).toMatchObject({
      url: `https://gw.example/ipfs/${CID0}/1.json`,
    });
    expect(resolveTokenUri(`ipfs/${CID1}`, 1, gw)).toMatchObject({ url: `https://gw.example/ipfs/${CID1}` });
    expect(resolveTokenUri(CID0, 1, gw)).toMatchObject({
      url: `https://gw.example/ipfs/${CID0}`,
      originalUri: `ipfs://${CID0}`,
    });
    expect(resolveTokenUri(`${CID1}/7`, 1, gw)).toMatchObject({ url: `https://gw.example/ipfs/${CID1}/7` });
  });

  it("rewrites path-style gateway URLs to our gateway (issue #10150) but not our own gateway", () => {
    expect(resolveTokenUri(`https://gateway.pinata.cloud/ipfs/${CID0}/3?x=1`, 1, gw)).toMatchObject({
      via: "ipfs",
      url: `https://gw.example/ipfs/${CID0}/3?x=1`,
      originalUri: `https://gateway.pinata.cloud/ipfs/${CID0}/3?x=1`,
    });
    expect(resolveTokenUri(`https://gw.example/ipfs/${CID0}`, 1, gw)).toMatchObject({ via: "http" });
    expect(resolveTokenUri("https://site.example/ipfs/not-a-cid", 1, gw)).toMatchObject({ via: "http" });
  });

  it("maps ar:// to the Arweave gateway", () => {
    expect(resolveTokenUri("ar://abc_DEF-123/meta", 1, gw)).toMatchObject({
      via: "ar",
      url: "https://ar.example/abc_DEF-123/meta",
      originalUri: "ar://abc_DEF-123/meta",
    });
  });

  it("decodes data: URIs (plain, percent-encoded, utf8 parameter, base64) inline", () => {
    const json = '{"name":"A #1","description":"100% on chain"}';
    for (const uri of [
      `data:application/json,${json}`,
      `data:application/json;utf8,${json}`,
      `data:application/json;charset=utf-8,${encodeURIComponent(json)}`,
      `data:application/json;base64,${Buffer.from(json).toString("base64")}`,
    ]) {
      const r = resolveTokenUri(uri, 1, gw);
      expect(r.ok && r.kind === "inline" && r.body.toString()).toBe(json);
    }
    expect(resolveTokenUri("data:application/json;base64,@@@", 1, gw)).toMatchObject({
      ok: false,
      reason: "invalid_data_uri",
    });
    expect(resolveTokenUri("data:application/json", 1, gw)).toMatchObject({
      ok: false,
      reason: "invalid_data_uri",
    });
  });

  it("accepts raw JSON and a single-quoted URI", () => {
    expect(resolveTokenUri(' {"name":"x"}', 1, gw)).toMatchObject({
      kind: "inline",
      contentType: "application/json",
    });
    expect(resolveTokenUri("'https://a.example/1'", 1, gw)).toMatchObject({ url: "https://a.example/1" });
  });

  it("rejects everything else with a reason", () => {
    expect(resolveTokenUri("", 1, gw)).toMatchObject({ ok: false, reason: "no_uri", retryable: false });
    expect(resolveTokenUri("   ", 1, gw)).toMatchObject({ reason: "no_uri" });
    expect(resolveTokenUri("file:///etc/passwd", 1, gw)).toMatchObject({ reason: "unsupported_scheme" });
    expect(resolveTokenUri("gopher://x.example/", 1, gw)).toMatchObject({ reason: "unsupported_scheme" });
    expect(resolveTokenUri("javascript:alert(1)", 1, gw)).toMatchObject({ reason: "unsupported_scheme" });
    expect(resolveTokenUri("ftp://x.example/1", 1, gw)).toMatchObject({ reason: "unsupported_scheme" });
    expect(resolveTokenUri("ipfs://", 1, gw)).toMatchObject({ reason: "invalid_uri" });
    expect(resolveTokenUri("not a uri", 1, gw)).toMatchObject({ reason: "invalid_uri" });
    expect(resolveTokenUri("https://", 1, gw)).toMatchObject({ reason: "invalid_uri" });
    expect(resolveTokenUri("https://a.example/{id}", -5n, gw)).toMatchObject({ reason: "invalid_token_id" });
  });
});

describe("parseDataUri()", () => {
  it("keeps a stray % literal and defaults to text/plain", () => {
    expect(percentDecodeToBytes("a%20b%zz%").toString()).toBe("a b%zz%");
    expect(parseDataUri("data:,hi%21")).toEqual({
      ok: true,
      value: { mediaType: "text/plain", body: Buffer.from("hi!") },
    });
    const svg = parseDataUri("data:image/svg+xml;base64,PHN2Zy8+");
    expect(svg.ok && svg.value.mediaType).toBe("image/svg+xml");
  });
});
