import WebSocket from "ws";

/**
 * The subscriber side of bench:live, in its own process so it does not share the server's event loop: opens N
 * sockets, joins `blocks:new_block` on each, and reports to the parent, per block height, when every socket got it.
 */
const [url, countArg] = process.argv.slice(2);
const count = Number(countArg);
const now = () => performance.timeOrigin + performance.now();
const received = new Map<number, number[]>();
let joined = 0;

function onFrame(data: Buffer) {
  const t = now();
  const frame = JSON.parse(data.toString()) as [string | null, string | null, string, string, any];
  if (frame[3] === "phx_reply") {
    if (++joined === count) process.send!({ ready: true });
    return;
  }
  if (frame[3] !== "new_block") return;
  const height = frame[4].block.height as number;
  const list = received.get(height) ?? [];
  list.push(t);
  received.set(height, list);
  if (list.length === count) {
    process.send!({ height, times: list });
    received.delete(height);
  }
}

async function connect() {
  const ws = new WebSocket(`${url}/socket/v2/websocket?vsn=2.0.0`);
  ws.on("message", onFrame);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  ws.send(JSON.stringify(["1", "1", "blocks:new_block", "phx_join", {}]));
}

async function main() {
  // A few hundred handshakes at a time: the listen backlog is bounded.
  for (let i = 0; i < count; i += 250)
    await Promise.all(Array.from({ length: Math.min(250, count - i) }, () => connect()));
}
process.on("disconnect", () => process.exit(0));
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
