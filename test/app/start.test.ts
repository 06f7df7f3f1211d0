import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWalletClient, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../src/chain/anvil.js";
import { fromBytea } from "../../src/db/bytes.js";
import { createPgliteDb } from "../../src/db/pglite.js";
import { rpc } from "../helpers/activity.js";
import { killAllCli, runCli } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "lookout-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("lookout start on embedded defaults", () => {
  it("launches a local chain, answers /health, indexes what a user sends, and shuts down cleanly", async () => {
    const port = await freePort();
    const p = runCli(["start"], { PORT: String(port), DATA_DIR: dir });
    try {
      const line: string = await p.waitFor(/Local chain \(anvil\) at http:\/\/127\.0\.0\.1:\d+/);
      const anvilUrl = line.match(/http:\/\/127\.0\.0\.1:\d+/)![0];
      const key = (await p.waitFor(/\(0\) 0x[0-9a-fA-F]{40}\s+private key 0x[0-9a-f]{64}/)).match(
        /0x[0-9a-f]{64}/,
      )![0] as `0x${string}`;
      await p.waitFor(/HTTP server listening/);
      // Compilers are discovered in the background (a fresh DATA_DIR: the installed solc-js are probed); a list
      // asked for at once waits for discovery and answers what a later request answers.
      const compilersUrl = `http://127.0.0.1:${port}/api/v1/solidity/compilers`;
      const versions = async () =>
        (
          (await (await fetch(compilersUrl)).json()) as { compilers: Array<{ version: string }> }
        ).compilers.map((c) => c.version);
      const early = await versions();
      await p.waitFor(/compilers: ready, \d+ Solidity/);
      expect(early.length).toBeGreaterThan(0);
      expect(early).toEqual(await versions());
      expect(p.output()).toMatch(/compilers: discovering in the background/);

      const wallet = createWalletClient({ account: privateKeyToAccount(key), transport: http(anvilUrl) });
      const chainId = Number(await rpc(anvilUrl, "eth_chainId"));
      const chain = {
        id: chainId,
        name: "local",
        nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
        rpcUrls: { default: { http: [anvilUrl] } },
      };
      const hashes = [];
      for (let i = 0; i < 3; i++)
        hashes.push(
          await wallet.sendTransaction({
            chain,
            to: "0x000000000000000000000000000000000000dEaD",
            value: parseEther("0.5"),
          }),
        );
      const head = Number(await rpc(anvilUrl, "eth_blockNumber"));

      let health: { status: string; indexer: { height: number | null; lag: number | null } } | undefined;
      for (let i = 0; i < 200; i++) {
        const r = await fetch(`http://127.0.0.1:${port}/health`);
        health = (await r.json()) as typeof health;
        if (r.status === 200 && (health!.indexer.height ?? -1) >= head) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(health!.status).toBe("ok");
      expect(health!.indexer.height).toBeGreaterThanOrEqual(head);

      const notFound = await fetch(`http://127.0.0.1:${port}/no/such/route`);
      expect(notFound.status).toBe(404);
      expect(await notFound.json()).toEqual({ message: "Not found" });
      const docs = await fetch(`http://127.0.0.1:${port}/api/docs/openapi.json`);
      expect(((await docs.json()) as { paths: Record<string, unknown> }).paths).toHaveProperty("/health");

      p.child.kill("SIGTERM");
      expect((await p.exited).code).toBe(0);
      // anvil is gone with it.
      await expect(rpc(anvilUrl, "eth_blockNumber")).rejects.toThrow();

      const db = await createPgliteDb(join(dir, "pglite"));
      try {
        const rows = await db.query<{ hash: Uint8Array }>("select hash from transactions");
        const stored = new Set<string>(rows.map((r) => fromBytea(r.hash)));
        for (const h of hashes) expect(stored.has(h)).toBe(true);
      } finally {
        await db.close();
      }
    } finally {
      // Also on failure: stopped with SIGTERM so the anvil it launched goes too (SIGKILL after a grace period).
      await killAllCli();
    }
  });
});
