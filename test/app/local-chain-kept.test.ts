import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { anvilAccounts, freePort } from "../../src/chain/anvil.js";
import { packagePath } from "../../src/util/package-root.js";
import { rpc } from "../helpers/activity.js";
import { type CliProcess, killAllCli, runCli } from "../helpers/cli.js";
import { canListProcesses, findProcesses, isAlive } from "../helpers/processes.js";
import { waitUntil } from "../helpers/wait.js";

const dir = mkdtempSync(join(tmpdir(), "lookout-kept-"));
const statePath = join(dir, "anvil", "state.json");
afterAll(async () => {
  await killAllCli();
  rmSync(dir, { recursive: true, force: true });
});

const offline = {
  COMPILERS_DIR: packagePath("node_modules/.cache/lookout-test-compilers"),
  SOLC_LIST_URL: "http://127.0.0.1:1/list.json",
  SOLCJS_LIST_URL: "http://127.0.0.1:1/bin/list.json",
  VYPER_LIST_URL: "http://127.0.0.1:1/vyper.json",
};

type Started = { p: CliProcess; port: number; anvilUrl: string; banner: string };

/** `lookout start` on the test's DATA_DIR; stdout is a pipe, so every line is JSON, the banner included. */
async function start(args: string[] = []): Promise<Started> {
  const port = await freePort();
  const p = runCli(["start", ...args], { PORT: String(port), DATA_DIR: dir, ...offline });
  const banner = await p.waitFor(/Local chain \(anvil\) at/, 180_000);
  const record = JSON.parse(banner) as { rpc_url: string; accounts: Array<{ private_key: string }> };
  expect(record.accounts).toHaveLength(10);
  await p.waitFor(/HTTP server listening/, 180_000);
  return { p, port, anvilUrl: record.rpc_url, banner };
}

const sender = anvilAccounts()[0]!.address;
/** A transfer; `value` tells transactions apart (the same nonce and value would give the same hash). */
async function send(anvilUrl: string, value = 1): Promise<{ hash: string; block: number }> {
  const hash = await rpc<string>(anvilUrl, "eth_sendTransaction", [
    { from: sender, to: "0x000000000000000000000000000000000000dEaD", value: `0x${value.toString(16)}` },
  ]);
  const receipt = await waitUntil("the receipt", () =>
    rpc<{ blockNumber: string } | null>(anvilUrl, "eth_getTransactionReceipt", [hash]).then(
      (r) => r ?? false,
    ),
  );
  return { hash, block: Number(receipt.blockNumber) };
}

async function height(port: number): Promise<number> {
  const h = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as {
    indexer: { height: number | null };
  };
  return h.indexer.height ?? -1;
}
const indexedTo = (s: Started, block: number) =>
  waitUntil(`the index at block ${block}`, async () => (await height(s.port)) >= block);
const savedBlock = () => {
  try {
    return Number(
      (JSON.parse(readFileSync(statePath, "utf8")) as { best_block_number: string }).best_block_number,
    );
  } catch {
    return -1;
  }
};
const savedAt = (block: number) =>
  waitUntil(`the chain saved at block ${block}`, () => savedBlock() >= block);
/** When the saved state was last written (0: not yet). */
const savedMtime = () => {
  try {
    return statSync(statePath).mtimeMs;
  } catch {
    return 0;
  }
};
const genesisHash = async (s: Started) =>
  (await rpc<{ hash: string }>(s.anvilUrl, "eth_getBlockByNumber", ["0x0", false])).hash;
const txStatus = async (s: Started, hash: string) =>
  (await fetch(`http://127.0.0.1:${s.port}/api/v2/transactions/${hash}`)).status;

/** The anvil serving `url`, found by its port among the running processes. */
function anvilPid(url: string): number {
  const port = new URL(url).port;
  const [pid] = findProcesses((argv) => /(^|\/)anvil$/.test(argv[0] ?? "") && argv.includes(port));
  expect(pid, `an anvil process on port ${port}`).toBeDefined();
  return pid!;
}

/** `kill -9` of Lookout: its anvil must go with it (no handler of Lookout's runs). */
async function killHard(s: Started): Promise<void> {
  const anvil = canListProcesses ? anvilPid(s.anvilUrl) : null;
  s.p.child.kill("SIGKILL");
  expect((await s.p.exited).signal).toBe("SIGKILL");
  if (anvil !== null)
    await waitUntil(`anvil (pid ${anvil}) to die with Lookout`, () => !isAlive(anvil), 30_000);
  await waitUntil("anvil's port to close", () =>
    rpc(s.anvilUrl, "eth_blockNumber").then(
      () => false,
      () => true,
    ),
  );
}

describe("lookout start keeps its local chain in DATA_DIR", () => {
  it("continues the chain after a restart and after kill -9 (anvil dies with Lookout), rewinds a lost tail, --reset starts afresh", async () => {
    try {
      // 1. A new chain; a transaction; saved and indexed.
      const a = await start();
      expect(a.banner).toMatch(/New local chain/);
      const genesis = await genesisHash(a);
      const tx1 = await send(a.anvilUrl);
      await indexedTo(a, tx1.block);
      await savedAt(tx1.block);

      // 2. kill -9: no process left; the next start continues the same chain, and the transaction is there.
      await killHard(a);
      const bSpawned = Date.now();
      const b = await start();
      expect(b.banner).toMatch(new RegExp(`Continuing the local chain saved in .* \\(block ${tx1.block}\\)`));
      expect(Number(await rpc(b.anvilUrl, "eth_blockNumber"))).toBe(tx1.block);
      expect(await rpc(b.anvilUrl, "eth_getTransactionByHash", [tx1.hash])).not.toBeNull();
      await indexedTo(b, tx1.block);
      expect(await txStatus(b, tx1.hash)).toBe(200);
      expect(await genesisHash(b)).toBe(genesis);

      // 3. A tail the last save missed (as when kill -9 comes within the save interval): the index has blocks
      // the restarted chain lacks. It rewinds them like a reorganisation and keeps the rest.
      // The older state is one this restarted anvil wrote: a chain loaded twice must keep its genesis (anvil
      // appends a fresh one to dumps taken after a load).
      // (a's dump, a chain never loaded, has no extra block to repair: a write after b's spawn is b's anvil's.)
      await waitUntil("the restarted chain saved by its own anvil", () => savedMtime() > bSpawned);
      const before = join(dir, "older-state.json");
      copyFileSync(statePath, before);
      const tx2 = await send(b.anvilUrl, 2);
      await indexedTo(b, tx2.block);
      await killHard(b);
      copyFileSync(before, statePath);
      const c = await start();
      expect(await genesisHash(c)).toBe(genesis);
      const tx3 = await send(c.anvilUrl, 3);
      expect(tx3.block).toBe(tx2.block); // the same height, another block
      await waitUntil(
        "the lost transaction rewound and the new one indexed",
        async () =>
          (await txStatus(c, tx2.hash)) === 404 && (await txStatus(c, tx3.hash)) === 200 ? true : undefined,
        300_000,
      ).catch((e: Error) => {
        throw new Error(`${e.message}\nLookout's output:\n${c.p.output().slice(-4000)}`);
      });
      expect(await txStatus(c, tx1.hash)).toBe(200);
      expect(c.p.output()).toMatch(/Reorged blocks/);
      expect(c.p.output()).not.toMatch(/Resetting the index/);

      // 4. An orderly stop saves the last block; --reset starts a new chain and a new index.
      c.p.child.kill("SIGTERM");
      expect((await c.p.exited).code).toBe(0);
      expect(savedBlock()).toBe(tx3.block);
      const d = await start(["--reset"]);
      expect(d.banner).toMatch(/New local chain/);
      expect(Number(await rpc(d.anvilUrl, "eth_blockNumber"))).toBe(0);
      await waitUntil("the old index replaced", async () =>
        (await height(d.port)) === 0 && (await txStatus(d, tx1.hash)) === 404 ? true : undefined,
      );
      d.p.child.kill("SIGTERM");
      expect((await d.p.exited).code).toBe(0);
    } finally {
      await killAllCli();
    }
  }, 600_000);
});
