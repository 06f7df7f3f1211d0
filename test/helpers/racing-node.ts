import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Hex } from "viem";
import { rpc } from "./activity.js";

type Call = { jsonrpc: "2.0"; id: unknown; method: string; params?: unknown[] };

export type RacingNode = {
  url: string;
  /** Reads of the head block that were answered with the state of the next block. */
  raced: number;
  close(): Promise<void>;
};

/**
 * A JSON-RPC proxy in front of anvil that behaves as anvil does when it mines the next block while a balance is
 * read (seen with `--block-time 1` under a burst of transactions): an `eth_getBalance` of the head block (by hash or
 * number) is answered with the balance after the next block. Here that happens every time, not once in a while: the
 * proxy queues a transaction paying the fee recipient a tip, mines it and answers from the new head. At most
 * `races` reads are raced; everything else is passed through unchanged.
 */
export async function startRacingNode(
  upstream: string,
  o: { races: number; tipFrom: Hex; tipTo: Hex },
): Promise<RacingNode> {
  const state = { raced: 0 };
  const isHead = async (block: unknown) => {
    const head = await rpc<{ number: Hex; hash: Hex }>(upstream, "eth_getBlockByNumber", ["latest", false]);
    if (typeof block === "string") return block === "latest" || BigInt(block) === BigInt(head.number);
    const b = block as { blockHash?: Hex; blockNumber?: Hex } | null;
    return (
      b?.blockHash === head.hash ||
      (b?.blockNumber !== undefined && BigInt(b.blockNumber) === BigInt(head.number))
    );
  };
  const answer = async (call: Call) => {
    const params = call.params ?? [];
    if (call.method === "eth_getBalance" && state.raced < o.races && (await isHead(params[1]))) {
      state.raced++;
      await rpc(upstream, "eth_sendTransaction", [
        {
          from: o.tipFrom,
          to: o.tipTo,
          value: "0x1",
          maxFeePerGas: "0x174876e800",
          maxPriorityFeePerGas: "0x77359400",
        },
      ]);
      await rpc(upstream, "evm_mine");
      const result = await rpc(upstream, "eth_getBalance", [params[0], "latest"]);
      return { jsonrpc: "2.0", id: call.id, result };
    }
    const r = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(call),
    });
    return r.json();
  };
  const answerOrFail = (call: Call) =>
    answer(call).catch((e: Error) => ({
      jsonrpc: "2.0",
      id: call.id,
      error: { code: -32603, message: `racing node: ${e.message}` },
    }));
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString()) as Call | Call[];
    // In order: a raced read changes what the calls after it see, as on the real node.
    let out: unknown;
    if (Array.isArray(body)) {
      const all: unknown[] = [];
      for (const c of body) all.push(await answerOrFail(c));
      out = all;
    } else out = await answerOrFail(body);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(out));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get raced() {
      return state.raced;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
