import { type Address, encodeDeployData, type Hex, parseEther } from "viem";
import { type App, buildApp } from "../../src/app/http-app.js";
import { createRpc } from "../../src/chain/rpc.js";
import { withIndexedChain } from "../../src/config/chains.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { refreshTokenProperties } from "../../src/token-workers/properties.js";
import type { VerifierApi } from "../../src/verifier/api.js";
import type { VerifierChain } from "../../src/verifier/chain-clients.js";
import type { CompilerRegistry } from "../../src/verifier/compilers/index.js";
import { createJobRunner, type JobRunner } from "../../src/verifier/jobs/index.js";
import { verify } from "../../src/verifier/service/index.js";
import { activityContracts, rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { explorerExtensions } from "../helpers/explorer-index.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { deploy, invoke, send } from "../helpers/tokens.js";
import { offlineVerifierCompilers } from "../helpers/verify.js";

export type RpcWorld = {
  chain: TestChain;
  db: TestDb;
  app: App;
  url: string;
  acct: Address[];
  coin: Address;
  nft: Address;
  multi: Address;
  /** An ERC-404 with 3 whole units minted to B (one ERC20Transfer, three ERC721Transfer). */
  hybrid: Address;
  forwarder: Address;
  forwardTx: Hex;
  revertedTx: Hex;
  /** With `verification`: the offline compilers and the job runner the verification actions use. */
  verification: { compilers: CompilerRegistry; jobs: JobRunner } | null;
  /** Indexes the chain up to its head again (after more transactions). */
  sync(): Promise<void>;
  stop(): Promise<void>;
};

/** Waits for a receipt (automine) and returns it. */
async function receipt(url: string, hash: Hex) {
  for (let i = 0; i < 200; i++) {
    const r = await rpc<{ status: Hex } | null>(url, "eth_getTransactionReceipt", [hash]);
    if (r) return r;
    await new Promise((ok) => setTimeout(ok, 25));
  }
  throw new Error(`no receipt for ${hash}`);
}

/**
 * An anvil chain with ETH transfers, an ERC-20, an ERC-721, an ERC-1155, a value-forwarding contract (internal
 * transactions) and a reverted call, indexed with the explorer's stages, and the app serving `/api`.
 */
export async function startRpcWorld(o: { verification?: boolean; chainId?: number } = {}): Promise<RpcWorld> {
  const chain = await startTestChain(o.chainId ? { chainId: o.chainId } : {});
  const url = chain.anvil.url;
  const acct = chain.accounts.slice(0, 4).map((a) => a.address.toLowerCase() as Address);
  const [A, B, C, D] = acct as [Address, Address, Address, Address];
  const eth = (from: Address, to: Address, v: string) =>
    rpc<Hex>(url, "eth_sendTransaction", [{ from, to, value: `0x${parseEther(v).toString(16)}` }]).then((h) =>
      receipt(url, h),
    );
  await eth(A, B, "1");
  await eth(B, C, "0.25");
  const coin = await deploy(url, A, "TestCoin", [10n ** 24n]);
  await invoke(url, A, coin, "TestCoin", "transfer", [B, 5n * 10n ** 18n]);
  await invoke(url, B, coin, "TestCoin", "transfer", [C, 10n ** 18n]);
  const nft = await deploy(url, A, "TestNft", ["Things", "THG", ""]);
  await invoke(url, A, nft, "TestNft", "mint", [B, 7n]);
  await invoke(url, B, nft, "TestNft", "transferFrom", [B, C, 7n]);
  await invoke(url, A, nft, "TestNft", "mint", [B, 8n]);
  const multi = await deploy(url, A, "Test1155", [""]);
  await invoke(url, A, multi, "Test1155", "mint", [B, 1n, 10n]);
  await invoke(url, A, multi, "Test1155", "mintBatch", [B, [2n, 3n], [20n, 30n]]);
  await invoke(url, B, multi, "Test1155", "safeTransferFrom", [B, D, 2n, 5n, "0x"]);
  const fwd = activityContracts().Forwarder!;
  const deployHash = await send(url, {
    from: A,
    data: encodeDeployData({ abi: fwd.abi, bytecode: fwd.bytecode }),
  });
  const forwarder = (
    await rpc<{ contractAddress: Address }>(url, "eth_getTransactionReceipt", [deployHash])
  ).contractAddress.toLowerCase() as Address;
  const forwardData = `0x101e8952${D.slice(2).padStart(64, "0")}` as Hex; // forward(address)
  const forwardTx = await rpc<Hex>(url, "eth_sendTransaction", [
    { from: B, to: forwarder, data: forwardData, value: "0x1000" },
  ]);
  await receipt(url, forwardTx);
  // Forwarding to the ERC-20 (no receive function) reverts: a failed transaction.
  const revertData = `0x101e8952${coin.slice(2).padStart(64, "0")}` as Hex;
  const revertedTx = await rpc<Hex>(url, "eth_sendTransaction", [
    { from: C, to: forwarder, data: revertData, value: "0x1", gas: "0x100000" },
  ]);
  await receipt(url, revertedTx);
  await eth(C, A, "0.01");
  const hybrid = await deploy(url, A, "Test404", [""]);
  await invoke(url, A, hybrid, "Test404", "mintUnits", [B, 3n]);

  const db = await createTestDb();
  const indexer = await createTestIndexer(db.db, url, {
    extensions: [...explorerExtensions(), coinBalanceExtension(), currentBalancesExtension()],
  });
  await indexToHead(indexer, db.db, url);
  const r = createRpc({ url, batchSize: 50, timeoutMs: 5000, retries: 1 });
  while ((await refreshTokenProperties(db.db, r)) > 0);

  const configs = withIndexedChain([], { id: String(chain.anvil.chainId), name: "Local", rpcUrl: url });
  const chains = new Map<string, VerifierChain>(
    configs.map((c) => [
      c.id,
      { config: c, rpc: createRpc({ url, batchSize: 10, timeoutMs: 10_000, retries: 1 }) },
    ]),
  );
  // Without `verification` the RPC modules read the index and the node only; the verification parts are never
  // reached. With it, a verifier with the offline compilers and a running job queue, as the app is started.
  const compilers = o.verification ? await offlineVerifierCompilers() : null;
  const jobs = compilers
    ? createJobRunner({
        db: db.db,
        verify: (req) => verify({ chains, compilers, db: db.db }, req),
        pollMs: 200,
      })
    : null;
  await jobs?.start();
  const verifier = (compilers && jobs
    ? { db: db.db, chains, compilers, jobs }
    : { db: db.db, chains, compilers: {}, jobs: {} }) as unknown as VerifierApi;
  const app = await buildApp({
    db: db.db,
    config: { bodyLimit: 1e6, healthMaxLagBlocks: 20 },
    logger: false,
    verifier,
    health: { rpcHead: async () => Number(await rpc<Hex>(url, "eth_blockNumber")) },
  });
  return {
    chain,
    db,
    app,
    url,
    acct,
    coin,
    nft,
    multi,
    hybrid,
    forwarder,
    forwardTx,
    revertedTx,
    verification: compilers && jobs ? { compilers, jobs } : null,
    sync: () => indexToHead(indexer, db.db, url),
    async stop() {
      await app.close();
      await jobs?.stop();
      await compilers?.close();
      await db.drop();
      await chain.stop();
    },
  };
}
