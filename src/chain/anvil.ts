import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { type Hex, toHex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { LookoutError } from "../errors/base.js";
import { tiedToThisProcess } from "../util/tied-child.js";

/** anvil's default mnemonic: the accounts every Foundry user knows. */
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

export type AnvilAccount = { address: Hex; privateKey: Hex };

export type Anvil = {
  url: string;
  port: number;
  chainId: number;
  accounts: AnvilAccount[];
  process: ChildProcess;
  stop(): Promise<void>;
};

const PLATFORM_PACKAGES: Record<string, string> = {
  "linux-x64": "@foundry-rs/anvil-linux-amd64",
  "linux-arm64": "@foundry-rs/anvil-linux-arm64",
  "darwin-x64": "@foundry-rs/anvil-darwin-amd64",
  "darwin-arm64": "@foundry-rs/anvil-darwin-arm64",
  "win32-x64": "@foundry-rs/anvil-win32-amd64",
};

/** The anvil binary of the npm platform package that fits this machine, else `anvil` from PATH. */
export function findAnvilBinary(): string {
  const pkg = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (pkg) {
    try {
      const require = createRequire(import.meta.url);
      const dir = dirname(require.resolve(`${pkg}/package.json`));
      const bin = join(dir, "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
      if (existsSync(bin)) return bin;
    } catch {
      // not installed: fall through to PATH
    }
  }
  return "anvil";
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export function anvilAccounts(count = 10): AnvilAccount[] {
  return Array.from({ length: count }, (_, i) => {
    const a = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: i });
    return { address: a.address, privateKey: toHex(a.getHdKey().privateKey!) };
  });
}

export type StartAnvilOptions = {
  port?: number;
  chainId?: number;
  blockTime?: number;
  hardfork?: string;
  /** A chain family other than Ethereum: `optimism` runs the OP stack's rules (deposit transactions, L1 fees, fee vaults). */
  network?: "optimism";
  /** Extra command-line arguments. */
  args?: string[];
  /** Keep the state of every block (for catching up on a long chain built before indexing; costs memory). */
  keepHistory?: boolean;
  /** A state dump (`anvil_dumpState`, as JSON) to start from: a local chain continued across restarts. */
  loadStatePath?: string;
};

/** Starts anvil on a free port and waits until it answers JSON-RPC. */
export async function startAnvil(o: StartAnvilOptions = {}): Promise<Anvil> {
  const port = o.port ?? (await freePort());
  const chainId = o.chainId ?? 31337;
  const args = ["--port", String(port), "--host", "127.0.0.1", "--chain-id", String(chainId), "--silent"];
  if (o.blockTime) args.push("--block-time", String(o.blockTime));
  if (o.hardfork) args.push("--hardfork", o.hardfork);
  if (o.network) args.push("--network", o.network);
  if (o.loadStatePath) args.push("--load-state", o.loadStatePath);
  // anvil forgets the state of blocks a few thousand back unless told to keep it (at a large memory cost); an
  // indexer that reads balances and traces at old blocks needs it when a long chain exists before indexing starts.
  if (o.keepHistory) args.push("--max-persisted-states", "1000000");
  args.push(...(o.args ?? []));
  const bin = findAnvilBinary();
  // Tied to this process: a `kill -9` of Lookout (or of a test worker) must not leave the chain running.
  const [cmd, argv] = tiedToThisProcess(bin, args);
  const child = spawn(cmd, argv, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.once("error", () => {});
  const url = `http://127.0.0.1:${port}`;
  // Generous: on a busy machine, or loading a large saved state, anvil takes a while; an exit ends the wait early.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    })
      .then((r) => r.ok)
      .catch(() => false);
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new LookoutError({
        code: "anvil_failed",
        shortMessage: `Could not start the local chain (${bin}).`,
        details: stderr.trim() || `exit code ${child.exitCode}`,
        metaMessages: [
          "Install the npm package @foundry-rs/anvil-<platform>, or set RPC_URL to an existing node.",
        ],
      });
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    port,
    chainId,
    accounts: anvilAccounts(),
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const t = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(t);
    },
  };
}
