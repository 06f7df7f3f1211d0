import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type JsonRpcCall = { jsonrpc: "2.0"; id: unknown; method: string; params?: unknown[] };
export type JsonRpcAnswer = { result: unknown } | { error: { code: number; message: string } };

export type JsonRpcServer = {
  url: string;
  /** How many times each method was asked. */
  calls: Map<string, number>;
  close(): Promise<void>;
};

/** What a handler may do with a call it does not answer itself: ask the upstream node (when there is one). */
export type Forward = (call: JsonRpcCall) => Promise<JsonRpcAnswer>;

/**
 * A small JSON-RPC server for tests (single calls and batches): `answer` gives the answer of a call, or undefined to
 * pass it to `upstream` unchanged (or answer "method not found" without one). A replay server is one without
 * upstream; a proxy rewriting a node's answers calls `forward` and changes what it got.
 */
export async function startJsonRpcServer(
  answer: (
    call: JsonRpcCall,
    forward: Forward,
  ) => Promise<JsonRpcAnswer | undefined> | JsonRpcAnswer | undefined,
  upstream?: string,
): Promise<JsonRpcServer> {
  const calls = new Map<string, number>();
  const forward: Forward = async (call) => {
    if (!upstream) return { error: { code: -32601, message: `the method ${call.method} does not exist` } };
    const r = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: call.method, params: call.params ?? [] }),
    });
    const body = (await r.json()) as JsonRpcAnswer;
    return "error" in body && body.error
      ? { error: body.error }
      : { result: (body as { result: unknown }).result };
  };
  const one = async (call: JsonRpcCall) => {
    calls.set(call.method, (calls.get(call.method) ?? 0) + 1);
    let a: JsonRpcAnswer;
    try {
      a = (await answer(call, forward)) ?? (await forward(call));
    } catch (e) {
      a = { error: { code: -32603, message: (e as Error).message } };
    }
    return { jsonrpc: "2.0", id: call.id, ...a };
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString()) as JsonRpcCall | JsonRpcCall[];
    const out = Array.isArray(body) ? await Promise.all(body.map(one)) : await one(body);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(out));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
