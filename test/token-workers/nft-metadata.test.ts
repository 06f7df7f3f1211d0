import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import { createRpc, type Rpc } from "../../src/chain/rpc.js";
import { fromBytea } from "../../src/db/bytes.js";
import { createTokensExtension } from "../../src/indexer/stages/tokens/extension.js";
import { DEFAULT_RETRY_POLICY, parseAllowedHosts } from "../../src/token-workers/metadata/index.js";
import { fetchDueMetadata, type MetadataFetchOptions } from "../../src/token-workers/metadata-worker.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { deploy, invoke, walkNft } from "../helpers/tokens.js";

const CID = "QmYFf7D2UtqnNz8Lu57Gnk3dxgdAiuboPWMEaNNjhr29tS";
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

describe("token metadata end to end: tokenURI → fetcher → database → /nft", () => {
  let chain: TestChain;
  let t: TestDb;
  let app: App;
  let server: Server;
  let base: string;
  let rpc: Rpc;
  let holder: Address;
  let nft: Address;
  let multi: Address;
  let dataToken: Address;
  let opts: MetadataFetchOptions;
  let fixed404 = false;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const u = req.url ?? "";
      const json = (status: number, body: string) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(body);
      };
      if (u === "/t/1")
        return json(
          200,
          JSON.stringify({
            name: "Good #1",
            image: `ipfs://${CID}/1.png`,
            external_url: "https://example.org/1",
          }),
        );
      if (u === "/t/2") return json(200, "{broken");
      if (u === "/t/3") return fixed404 ? json(200, JSON.stringify({ name: "Back #3" })) : json(404, "{}");
      if (u === "/t/4") return json(200, JSON.stringify({ name: "x".repeat(3 * 1024 * 1024) }));
      if (u === "/t/5") {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"name":');
        return; // never finishes
      }
      if (u === "/t/6") {
        res.writeHead(302, { location: "http://10.1.2.3/meta.json" });
        return res.end();
      }
      if (u === "/t/7") {
        res.writeHead(200, { "content-type": "image/png" });
        return res.end(PNG);
      }
      if (u.startsWith(`/ipfs/${CID}/`))
        return json(
          200,
          JSON.stringify({ name: `From IPFS ${u.split("/").pop()}`, animation_url: "ar://abc" }),
        );
      json(404, "{}");
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    opts = {
      gateways: { ipfs: `${base}/ipfs` },
      allowedHosts: parseAllowedHosts(`127.0.0.1:${port}`),
      timeoutMs: 1500,
      maxBytes: 1024 * 1024,
      policy: {
        ...DEFAULT_RETRY_POLICY,
        coefficientSeconds: 0,
        maxRetriesBeforeGiveUp: { permanent: 0, transient: 1, rate_limited: 1 },
      },
    };
    chain = await startTestChain();
    const url = chain.anvil.url;
    rpc = createRpc({ url, batchSize: 20, timeoutMs: 5000, retries: 1 });
    const [A, H] = chain.accounts.map((a) => a.address.toLowerCase() as Address) as [Address, Address];
    holder = H;
    t = await createTestDb();
    app = await buildApp({ db: t.db, config: { bodyLimit: 1e6 }, logger: false });
    nft = await deploy(url, A, "TestNft", ["Meta", "M", `${base}/t/`]);
    multi = await deploy(url, A, "Test1155", [`ipfs://${CID}/{id}.json`]);
    dataToken = await deploy(url, A, "Test1155", ['data:application/json;utf8,{"name":"Inline {id}"}']);
    await invoke(url, A, nft, "TestNft", "mintMany", [H, 1n, 7n]);
    await invoke(url, A, multi, "Test1155", "mint", [H, 5n, 1n]);
    await invoke(url, A, dataToken, "Test1155", "mint", [H, 255n, 1n]);
    const indexer = await createTestIndexer(t.db, url, { extensions: [createTokensExtension()] });
    await indexToHead(indexer, t.db, url);
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
    await chain?.stop();
    server?.closeAllConnections();
    server?.close();
  });

  async function instances() {
    const rows = await t.db.query<{
      token_address: Uint8Array;
      token_id: string;
      metadata: Record<string, unknown> | null;
      error_reason: string | null;
      gave_up: boolean;
    }>(
      "select token_address, token_id::text as token_id, metadata, error_reason, gave_up from token_instances",
    );
    return new Map(rows.map((r) => [`${fromBytea(r.token_address)}|${r.token_id}`, r]));
  }

  it("stores metadata or the failure the spec prescribes, and serves it through /nft", async () => {
    while ((await fetchDueMetadata(t.db, rpc, opts)) > 0);
    const got = await instances();
    const of = (token: Address, id: number) => got.get(`${token}|${id}`)!;
    expect(of(nft, 1).metadata).toMatchObject({ name: "Good #1" });
    expect(of(nft, 2)).toMatchObject({ metadata: null, error_reason: "invalid_json", gave_up: true });
    expect(of(nft, 3)).toMatchObject({ metadata: null, error_reason: "http_404", gave_up: true });
    expect(of(nft, 4)).toMatchObject({ metadata: null, error_reason: "too_large" });
    expect(of(nft, 5)).toMatchObject({ metadata: null, error_reason: "timeout" });
    expect(of(nft, 6)).toMatchObject({ metadata: null, error_reason: "forbidden_address" });
    expect(of(nft, 7).metadata).toEqual({ image: `${base}/t/7` });
    expect(of(multi, 5).metadata).toMatchObject({
      name: "From IPFS 0000000000000000000000000000000000000000000000000000000000000005.json",
    });
    expect(of(dataToken, 255).metadata).toEqual({ name: `Inline ${(255).toString(16).padStart(64, "0")}` });

    const { items } = await walkNft(app, holder);
    const item = items.find((i) => i.token.address_hash.toLowerCase() === nft && i.id === "1")!;
    expect(item).toMatchObject({
      metadata: { name: "Good #1" },
      // The API rewrites with its own gateway (IPFS_GATEWAY_URL, default ipfs.io), not the fetcher's.
      image_url: `https://ipfs.io/ipfs/${CID}/1.png`,
      media_url: `ipfs://${CID}/1.png`,
      external_app_url: "https://example.org/1",
      animation_url: null,
    });
    const ipfsItem = items.find((i) => i.token.address_hash.toLowerCase() === multi)!;
    expect(ipfsItem.animation_url).toBe("https://arweave.net/abc");
    const failed = items.find((i) => i.token.address_hash.toLowerCase() === nft && i.id === "3")!;
    expect(failed).toMatchObject({ metadata: null, image_url: null });
  });

  it("refetches on request, after a give-up", async () => {
    fixed404 = true;
    expect(await fetchDueMetadata(t.db, rpc, opts)).toBe(0); // gave up: nothing due
    const res = await app.inject({
      method: "PATCH",
      url: `/api/v2/tokens/${nft}/instances/3/refetch-metadata`,
    });
    expect(res.statusCode).toBe(200);
    expect(await fetchDueMetadata(t.db, rpc, opts)).toBe(1);
    expect((await instances()).get(`${nft}|3`)).toMatchObject({
      metadata: { name: "Back #3" },
      error_reason: null,
    });
    const inst = (await app.inject(`/api/v2/tokens/${nft}/instances/3`)).json();
    expect(inst).toMatchObject({ id: "3", metadata: { name: "Back #3" }, is_unique: true });
    expect(inst.owner.hash.toLowerCase()).toBe(holder);
    expect(
      (await app.inject({ method: "PATCH", url: `/api/v2/tokens/${nft}/instances/999/refetch-metadata` }))
        .statusCode,
    ).toBe(404);
    expect((await app.inject(`/api/v2/tokens/${nft}`)).json()).toMatchObject({ type: "ERC-721" });
  });

  it("refuses private addresses unless allow-listed", async () => {
    await t.db.query(
      "update token_instances set retry_at = now(), gave_up = false, fetch_attempts = 0, metadata = null",
    );
    const strict = { ...opts, allowedHosts: [] };
    while ((await fetchDueMetadata(t.db, rpc, strict)) > 0);
    const got = await instances();
    expect(got.get(`${nft}|1`)).toMatchObject({ metadata: null, error_reason: "forbidden_address" });
    // data: URIs need no network.
    expect(got.get(`${dataToken}|255`)!.metadata).not.toBeNull();
  });
});
