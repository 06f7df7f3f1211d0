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
import { waitUntil } from "../helpers/wait.js";

const dir = mkdtempSync(join(tmpdir(), "lookout-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("lookout start on embedded defaults", () => {
  it("launches a local chain, answers /health, indexes what a user sends, and shuts down cleanly", {
    timeout: 600_000,
  }, async () => {
    const port = await freePort();
    const p = runCli(["start"], { PORT: String(port), DATA_DIR: dir });
    try {
      // stdout is a pipe: every line is JSON, the banner with its accounts included.
      const banner = JSON.parse(
        await p.waitFor(/Local chain \(anvil\) at http:\/\/127\.0\.0\.1:\d+/, 180_000),
      ) as {
        rpc_url: string;
        accounts: Array<{ address: string; private_key: `0x${string}` }>;
      };
      const anvilUrl = banner.rpc_url;
      const key = banner.accounts[0]!.private_key;
      expect(key).toMatch(/^0x[0-9a-f]{64}$/);
      await p.waitFor(/HTTP server listening/, 180_000);
      // Compilers are discovered in the background (a fresh DATA_DIR: the installed solc-js are probed); a list
      // asked for at once waits for discovery and answers what a later request answers.
      const compilersUrl = `http://127.0.0.1:${port}/api/v1/solidity/compilers`;
      const versions = async () =>
        (
          (await (await fetch(compilersUrl)).json()) as { compilers: Array<{ version: string }> }
        ).compilers.map((c) => c.version);
      const early = await versions();
      await p.waitFor(/compilers: ready, \d+ Solidity/, 180_000);
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

      type Health = { status: string; indexer: { height: number | null; lag: number | null } };
      const health = await waitUntil("the index at the head", async () => {
        const r = await fetch(`http://127.0.0.1:${port}/health`);
        const h = (await r.json()) as Health;
        return r.status === 200 && (h.indexer.height ?? -1) >= head ? h : undefined;
      });
      expect(health.status).toBe("ok");
      expect(health.indexer.height).toBeGreaterThanOrEqual(head);

      const notFound = await fetch(`http://127.0.0.1:${port}/no/such/route`);
      expect(notFound.status).toBe(404);
      expect(await notFound.json()).toEqual({ message: "Not found" });
      const docs = await fetch(`http://127.0.0.1:${port}/api/docs/openapi.json`);
      expect(((await docs.json()) as { paths: Record<string, unknown> }).paths).toHaveProperty("/health");

      p.child.kill("SIGTERM");
      expect((await p.exited).code).toBe(0);
      // For a log file or collector: JSON from the first line to the last (stdout and stderr).
      const lines = p
        .output()
        .split("\n")
        .filter((l) => l.trim() !== "");
      expect(lines.filter((l) => !l.startsWith("{") || !JSON.parse(l))).toEqual([]);
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
