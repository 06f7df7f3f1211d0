import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpFetch } from "./http-fetch.js";

/** A real server: /echo answers the body it got, /big a body of ?n bytes (chunked, or declared with &declared). */
describe("httpFetch (node:http for viem)", () => {
  let server: http.Server;
  let base: string;
  const connections = new Set<unknown>();
  let resetSecondOnConnection = false;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      connections.add(req.socket);
      const served = ((req.socket as { served?: number }).served ?? 0) + 1;
      (req.socket as { served?: number }).served = served;
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://x");
        if (resetSecondOnConnection && served >= 2) return req.socket.destroy();
        if (url.pathname === "/echo") {
          res.setHeader("content-type", "application/json");
          return res.end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString() }));
        }
        if (url.pathname === "/status") {
          res.statusCode = 429;
          res.setHeader("retry-after", "2");
          return res.end("slow down");
        }
        if (url.pathname === "/big") {
          const n = Number(url.searchParams.get("n"));
          if (url.searchParams.has("declared")) res.setHeader("content-length", n);
          res.write("x".repeat(n / 2));
          setTimeout(() => res.end("x".repeat(n / 2)), 5);
          return;
        }
        if (url.pathname === "/never") return;
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it("posts the body and answers status, headers and text, on one kept-alive connection", async () => {
    const f = httpFetch({ maxBytes: 1024 });
    connections.clear();
    for (let i = 0; i < 3; i++) {
      const res = await f(`${base}/echo`, { method: "POST", body: `{"i":${i}}`, headers: { a: "b" } });
      expect(res.ok).toBe(true);
      expect(res.headers.get("Content-Type")).toBe("application/json");
      expect(JSON.parse(await res.text())).toEqual({ method: "POST", body: `{"i":${i}}` });
    }
    expect(connections.size).toBe(1);
    const limited = await f(`${base}/status`, { method: "POST", body: "" });
    expect([limited.ok, limited.status, limited.headers.get("retry-after")]).toEqual([false, 429, "2"]);
  });

  it("refuses an answer over the bound, declared or streamed", async () => {
    const f = httpFetch({ maxBytes: 1000 });
    await expect(f(`${base}/big?n=2000&declared`, { method: "POST" })).rejects.toMatchObject({
      code: "rpc_response_too_large",
    });
    await expect(f(`${base}/big?n=2000`, { method: "POST" })).rejects.toMatchObject({
      code: "rpc_response_too_large",
    });
    expect((await (await f(`${base}/big?n=1000`, { method: "POST" })).text()).length).toBe(1000);
  });

  it("aborts on the caller's signal", async () => {
    const f = httpFetch({ maxBytes: 1000 });
    const ac = new AbortController();
    const pending = f(`${base}/never`, { method: "POST", signal: ac.signal });
    ac.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("sends again on a new connection when a kept-alive one was reset", async () => {
    const f = httpFetch({ maxBytes: 1024 });
    resetSecondOnConnection = true;
    try {
      await f(`${base}/echo`, { method: "POST", body: "1" });
      const res = await f(`${base}/echo`, { method: "POST", body: "2" });
      expect(JSON.parse(await res.text()).body).toBe("2");
    } finally {
      resetSecondOnConnection = false;
    }
  });
});
