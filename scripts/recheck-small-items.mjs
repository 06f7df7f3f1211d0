// Re-runs the reliability review's smaller findings against a running Lookout and prints each answer:
//   node scripts/recheck-small-items.mjs http://127.0.0.1:4000 [verified-contract-address chain-id]
// Raw sockets for the requests fetch cannot send (an invalid method).
import { connect } from "node:net";

const base = process.argv[2] ?? "http://127.0.0.1:4000";
const verified = process.argv[3];
const chainId = process.argv[4] ?? "31337";
const { hostname, port } = new URL(base);

function raw(request) {
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), hostname);
    let data = "";
    s.setTimeout(15_000, () => s.destroy(new Error("no answer")));
    s.on("data", (d) => {
      data += d.toString("latin1");
    });
    s.on("error", reject);
    s.on("close", () => {
      const [head, body = ""] = data.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), body });
    });
    s.write(request);
  });
}

const show = (what, status, body, extra = "") =>
  console.log(`${String(status).padEnd(4)} ${what}\n     ${String(body).slice(0, 160)}${extra}`);

async function get(path, init) {
  const r = await fetch(`${base}${path}`, init);
  const retry = r.headers.get("retry-after");
  show(
    `${init?.method ?? "GET"} ${path.slice(0, 110)}`,
    r.status,
    await r.text(),
    retry ? ` [Retry-After: ${retry}]` : "",
  );
}

for (const v of [
  "9223372036854775807",
  "9223372036854775808",
  "18446744073709551616",
  "1e100",
  `0x${"a".repeat(41)}`,
])
  await get(`/api/v2/smart-contracts?smart_contract_id=${v}`);
const target = verified ?? "0x0000000000000000000000000000000000000001";
await get(`/sourcify/v2/contract/${chainId}/${target}?fields=compilation&fields=abi`);
await get(`/sourcify/v2/contract/${chainId}/${target}?omit=sources&omit=abi`);
for (const a of ["__proto__", "constructor", "toString"]) await get(`/api?module=contract&action=${a}`);
for (const path of ["/api/v2/verifier/solidity/versions", "/api/v2/bytecodes/sources:search"]) {
  const r = await raw(`get ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  show(`get (lowercase method) ${path}`, r.status, r.body);
}
for (const path of ["/api/v2/stats", "/api/v1/solidity/compilers", "/api"])
  await get(path, { method: "OPTIONS" });
await get("/socket/v2/websocket");
