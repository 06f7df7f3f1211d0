import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Hex } from "viem";

type Call = { jsonrpc: "2.0"; id: unknown; method: string; params?: unknown[] };
export type NodeWithdrawal = { index: Hex; validatorIndex: Hex; address: Hex; amount: Hex };

/** Block n > 0 pays n % 4 + 2 withdrawals (global indexes count up from block 1), to three receivers, in gwei. */
export function withdrawalsOf(n: number): NodeWithdrawal[] {
  const count = (b: number) => (b === 0 ? 0 : (b % 4) + 2);
  let first = 0;
  for (let b = 1; b < n; b++) first += count(b);
  return Array.from({ length: count(n) }, (_, i) => {
    const index = first + i;
    return {
      index: `0x${index.toString(16)}`,
      validatorIndex: `0x${(1000 + (index % 7)).toString(16)}`,
      address: `0x${(0xbeac0 + (index % 3)).toString(16).padStart(40, "0")}` as Hex,
      amount: `0x${(1_000_000 + index * 37).toString(16)}`,
    };
  });
}

/**
 * A JSON-RPC proxy in front of anvil that answers blocks as a post-Shanghai beacon-backed node would: each block
 * carries `withdrawalsOf(number)` (anvil pays none). Everything else passes through unchanged.
 */
export async function startWithdrawalsNode(
  upstream: string,
): Promise<{ url: string; close(): Promise<void> }> {
  // anvil may drop a kept-alive connection under load: a failed forward is retried on a fresh one.
  const forward = async (body: unknown): Promise<unknown> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await fetch(upstream, {
          method: "POST",
          headers: { "content-type": "application/json", connection: "close" },
          body: JSON.stringify(body),
        });
        return await r.json();
      } catch (e) {
        if (attempt >= 3) throw e;
      }
    }
  };
  const patch = (call: Call, answer: { result?: unknown }) => {
    const block = answer.result as { number?: Hex; withdrawals?: unknown } | null | undefined;
    if ((call.method === "eth_getBlockByNumber" || call.method === "eth_getBlockByHash") && block?.number)
      block.withdrawals = withdrawalsOf(Number(BigInt(block.number)));
    return answer;
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString()) as Call | Call[];
    const answer = (await forward(body).catch((e: Error) => {
      res.statusCode = 502;
      return { jsonrpc: "2.0", id: null, error: { code: -32603, message: e.message } };
    })) as { result?: unknown } | Array<{ result?: unknown; id: unknown }>;
    let out: unknown = answer;
    if (Array.isArray(body) && Array.isArray(answer))
      out = answer.map((a) => patch(body.find((c) => c.id === a.id) ?? body[0]!, a));
    else if (!Array.isArray(body) && !Array.isArray(answer)) out = patch(body, answer);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(out));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
