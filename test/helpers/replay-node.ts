import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

type Call = { jsonrpc: "2.0"; id: unknown; method: string; params?: unknown[] };
type Answer = { jsonrpc: "2.0"; id: unknown; result?: unknown; error?: unknown };

/** Recorded JSON-RPC answers by call (method and parameters): what a replay node serves. */
export type Recording = Map<string, Omit<Answer, "id" | "jsonrpc">>;

const keyOf = (c: Call) => `${c.method} ${JSON.stringify(c.params ?? [])}`;

/** Changes a recorded result before it is served (an invented transaction type, a member no node sends). */
export type Patch = (method: string, params: unknown[], result: unknown) => unknown;

export type ReplayNode = { url: string; recording: Recording; close(): Promise<void> };

/**
 * A small JSON-RPC node for tests. With `upstream` it records: every call (single or batched) is forwarded and its
 * answer kept by method and parameters. Without, it replays a recording, each result passed through `patch`; a
 * call that was never recorded is answered "method not found", as a node without it would.
 */
export async function startReplayNode(
  o: { upstream: string } | { recording: Recording; patch?: Patch },
): Promise<ReplayNode> {
  const recording: Recording = "recording" in o ? o.recording : new Map();
  const forward = async (body: Call | Call[]): Promise<Answer | Answer[]> => {
    const upstream = (o as { upstream: string }).upstream;
    const r = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json", connection: "close" },
      body: JSON.stringify(body),
    });
    const answer = (await r.json()) as Answer | Answer[];
    const calls = Array.isArray(body) ? body : [body];
    for (const a of Array.isArray(answer) ? answer : [answer]) {
      const call = calls.find((c) => c.id === a.id);
      if (call) recording.set(keyOf(call), a.error ? { error: a.error } : { result: a.result });
    }
    return answer;
  };
  const replay = (c: Call): Answer => {
    const kept = recording.get(keyOf(c));
    if (!kept)
      return { jsonrpc: "2.0", id: c.id, error: { code: -32601, message: `not recorded: ${c.method}` } };
    if (kept.error || !("patch" in o) || !o.patch) return { jsonrpc: "2.0", id: c.id, ...kept };
    // A deep copy: the patch must not change the recording itself.
    const result = o.patch(c.method, c.params ?? [], structuredClone(kept.result));
    return { jsonrpc: "2.0", id: c.id, result };
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString()) as Call | Call[];
    let out: Answer | Answer[];
    try {
      out = "upstream" in o ? await forward(body) : Array.isArray(body) ? body.map(replay) : replay(body);
    } catch (e) {
      res.statusCode = 502;
      out = { jsonrpc: "2.0", id: null, error: { code: -32603, message: (e as Error).message } };
    }
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(out));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    recording,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
