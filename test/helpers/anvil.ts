import {
  type Account,
  type Chain,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  publicActions,
  walletActions,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type Anvil, type StartAnvilOptions, startAnvil } from "../../src/chain/anvil.js";

export type TestChain = {
  anvil: Anvil;
  chain: Chain;
  /** Test, public and wallet actions against this anvil (mining, snapshots, reorgs, reads, sends). */
  client: ReturnType<typeof makeClient>;
  accounts: Account[];
  stop(): Promise<void>;
};

function makeClient(url: string, chain: Chain, account: Account) {
  return createTestClient({ mode: "anvil", transport: http(url), chain, account })
    .extend(publicActions)
    .extend(walletActions);
}

/** anvil on a free port, for one test file. */
export async function startTestChain(o: StartAnvilOptions = {}): Promise<TestChain> {
  const anvil = await startAnvil(o);
  const chain = defineChain({
    id: anvil.chainId,
    name: "anvil",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [anvil.url] } },
  });
  const accounts = anvil.accounts.map((a) => privateKeyToAccount(a.privateKey));
  return {
    anvil,
    chain,
    accounts,
    client: makeClient(anvil.url, chain, accounts[0]!),
    stop: () => anvil.stop(),
  };
}

export function walletFor(t: TestChain, index: number) {
  return createWalletClient({ transport: http(t.anvil.url), chain: t.chain, account: t.accounts[index]! });
}
