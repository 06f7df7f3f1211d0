#!/usr/bin/env node
/**
 * Drives the real Blockscout frontend (a built source checkout, see docs/frontend-check.md) against a running Lookout
 * in headless Chromium: writes the frontend's run-time settings pointing at Lookout (its API, socket and stats
 * service), starts `next start` on a free port, visits pages, and reports every request to Lookout with its status,
 * the requests that failed, the console errors, and a screenshot per page. Exits 1 when a request to Lookout was not
 * 2xx or failed, or a page did not load.
 *
 *   node scripts/frontend-check.mjs --frontend /work/frontend --lookout http://127.0.0.1:4000 \
 *     [--rpc http://127.0.0.1:8545] [--chain-id 31337] [--name "Local chain"] [--symbol ETH] \
 *     [--pages /,/stats,/stats/nativeCoinSupply] [--out frontend-check] [--chromium /usr/bin/chromium] [--node node] \
 *     [--env NEXT_PUBLIC_X=y]...
 *
 * `--rpc` is the chain's JSON-RPC (the frontend's Read/Write tabs call it; its chain id is asked there when
 * `--chain-id` is not given, else Lookout's eth-rpc is asked). `--node` is the Node.js that runs the frontend (v2.0.3
 * wants 22). Pages are paths of the frontend; `--wait-ms` is how long a page may take to settle (default 20000).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const { values: opt } = parseArgs({
  options: {
    frontend: { type: "string" },
    lookout: { type: "string" },
    rpc: { type: "string" },
    "chain-id": { type: "string" },
    name: { type: "string", default: "Lookout chain" },
    symbol: { type: "string", default: "ETH" },
    pages: {
      type: "string",
      default: "/,/stats,/stats/nativeCoinSupply,/gas-tracker,/verified-contracts,/txs",
    },
    out: { type: "string", default: "frontend-check" },
    chromium: { type: "string", default: "/usr/bin/chromium" },
    node: { type: "string", default: process.execPath },
    env: { type: "string", multiple: true, default: [] },
    "wait-ms": { type: "string", default: "20000" },
  },
});
if (!opt.frontend || !opt.lookout) {
  console.error(
    "usage: frontend-check.mjs --frontend <built frontend folder> --lookout <Lookout URL> [options]",
  );
  process.exit(2);
}
const frontend = resolve(opt.frontend);
const lookout = new URL(opt.lookout);
const out = resolve(opt.out);
const waitMs = Number(opt["wait-ms"]);
mkdirSync(out, { recursive: true });

/** A free TCP port on the loopback interface. */
function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

async function chainId() {
  if (opt["chain-id"]) return opt["chain-id"];
  // Under the chain's base path (`/chains/{id}/api/eth-rpc`): the root's eth-rpc is another chain's.
  const url = opt.rpc ?? new URL(`${lookout.pathname.replace(/\/$/, "")}/api/eth-rpc`, lookout).toString();
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
  });
  const { result } = await r.json();
  if (!result) throw new Error(`no chain id from ${url}: give --chain-id`);
  return String(Number(result));
}

/** The sprite the frontend's build_sprite.sh made (public/icons/sprite.<hash>.svg): the page needs its hash. */
function spriteHash() {
  const dir = join(frontend, "public/icons");
  const f = existsSync(dir) ? readdirSync(dir).find((n) => /^sprite\.[0-9a-f]+\.svg$/.test(n)) : undefined;
  if (!f)
    throw new Error(`${dir} has no sprite.<hash>.svg: run deploy/scripts/build_sprite.sh in the frontend`);
  return f.split(".")[1];
}

/** Runs a command to its end; rejects on a non-zero exit. */
function run(cmd, args, o) {
  return new Promise((ok, fail) => {
    const p = spawn(cmd, args, { ...o, stdio: ["ignore", "inherit", "inherit"] });
    p.once("error", fail);
    p.once("exit", (code) => (code === 0 ? ok() : fail(new Error(`${cmd} ${args.join(" ")}: exit ${code}`))));
  });
}

/** Waits until `url` answers (any status below 500), or fails after `ms`. */
async function answering(url, ms, child) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the frontend exited (${child.exitCode}) before answering`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(5000) });
      if (r.status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

const port = await freePort();
const appUrl = `http://127.0.0.1:${port}`;
const id = await chainId();
const apiPort = lookout.port || (lookout.protocol === "https:" ? "443" : "80");
const env = {
  NEXT_PUBLIC_APP_PROTOCOL: "http",
  NEXT_PUBLIC_APP_HOST: "127.0.0.1",
  NEXT_PUBLIC_APP_PORT: String(port),
  NEXT_PUBLIC_API_PROTOCOL: lookout.protocol.replace(":", ""),
  NEXT_PUBLIC_API_HOST: lookout.hostname,
  NEXT_PUBLIC_API_PORT: apiPort,
  NEXT_PUBLIC_API_BASE_PATH: lookout.pathname === "/" ? "" : lookout.pathname.replace(/\/$/, ""),
  NEXT_PUBLIC_API_WEBSOCKET_PROTOCOL: lookout.protocol === "https:" ? "wss" : "ws",
  NEXT_PUBLIC_STATS_API_HOST: lookout.origin,
  NEXT_PUBLIC_STATS_API_BASE_PATH: `${lookout.pathname.replace(/\/$/, "")}/stats-service`,
  NEXT_PUBLIC_IS_ACCOUNT_SUPPORTED: "false",
  NEXT_PUBLIC_NETWORK_ID: id,
  NEXT_PUBLIC_NETWORK_NAME: opt.name,
  NEXT_PUBLIC_NETWORK_SHORT_NAME: opt.name,
  NEXT_PUBLIC_NETWORK_CURRENCY_NAME: opt.symbol,
  NEXT_PUBLIC_NETWORK_CURRENCY_SYMBOL: opt.symbol,
  NEXT_PUBLIC_NETWORK_CURRENCY_DECIMALS: "18",
  NEXT_PUBLIC_ICON_SPRITE_HASH: spriteHash(),
  NEXT_PUBLIC_GAS_TRACKER_UNITS: '["gwei"]',
  // The home page's daily transactions chart (from the stats service's main page) is off unless listed.
  NEXT_PUBLIC_HOMEPAGE_CHARTS: '["daily_txs"]',
  ...(opt.rpc ? { NEXT_PUBLIC_NETWORK_RPC_URL: opt.rpc } : {}),
  ...Object.fromEntries(opt.env.map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)])),
};
// Only these settings, not the caller's other NEXT_PUBLIC_ ones: the browser reads them from public/assets/envs.js.
const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("NEXT_PUBLIC_")));
const childEnv = { ...base, ...env, NEXT_TELEMETRY_DISABLED: "1", PORT: String(port), HOSTNAME: "127.0.0.1" };
await run("bash", ["./deploy/scripts/make_envs_script.sh"], { cwd: frontend, env: childEnv });

const next = spawn(
  opt.node,
  [join(frontend, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
  { cwd: frontend, env: childEnv, stdio: ["ignore", "pipe", "pipe"], detached: true },
);
const serverLog = [];
for (const s of [next.stdout, next.stderr]) s.on("data", (d) => serverLog.push(String(d)));
/** Ends the frontend's process group (next start and what it spawned), once. */
const stopFrontend = () => {
  if (next.exitCode === null && next.pid) {
    try {
      process.kill(-next.pid, "SIGTERM");
    } catch {}
  }
};
process.on("exit", stopFrontend);
for (const sig of ["SIGINT", "SIGTERM"])
  process.on(sig, () => {
    stopFrontend();
    process.exit(130);
  });

const report = { frontend: appUrl, lookout: lookout.origin, chainId: id, pages: [] };
let browser;
let failed = false;
try {
  await answering(`${appUrl}/`, 120_000, next);
  browser = await chromium.launch({
    executablePath: opt.chromium,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  for (const path of opt.pages.split(",").filter(Boolean)) {
    const page = await context.newPage();
    const requests = [];
    const pending = new Set();
    const consoleErrors = [];
    const failedRequests = [];
    // The socket (new blocks and transactions): playwright reports it apart from the requests.
    const sockets = [];
    page.on("websocket", (ws) => {
      const url = new URL(ws.url());
      if (url.host !== lookout.host) return;
      const s = { path: url.pathname + url.search, framesReceived: 0, error: null };
      sockets.push(s);
      ws.on("framereceived", () => s.framesReceived++);
      ws.on("socketerror", (e) => (s.error = String(e)));
    });
    page.on("request", (r) => {
      if (new URL(r.url()).origin === lookout.origin) pending.add(r);
    });
    page.on("requestfinished", async (r) => {
      pending.delete(r);
      const url = new URL(r.url());
      if (url.origin !== lookout.origin) return;
      const res = await r.response().catch(() => null);
      requests.push({ method: r.method(), path: url.pathname + url.search, status: res?.status() ?? 0 });
    });
    page.on("requestfailed", (r) => {
      pending.delete(r);
      const url = new URL(r.url());
      // Third-party hosts (fonts, CDNs) cannot be reached offline: only Lookout's and the frontend's count.
      if (url.origin === lookout.origin || url.origin === appUrl)
        failedRequests.push({ url: url.pathname + url.search, error: r.failure()?.errorText ?? "failed" });
    });
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text().slice(0, 300));
    });
    page.on("pageerror", (e) => consoleErrors.push(`pageerror: ${String(e.message).slice(0, 300)}`));
    let status = 0;
    let error = null;
    try {
      const res = await page.goto(`${appUrl}${path}`, { waitUntil: "load", timeout: waitMs * 3 });
      status = res?.status() ?? 0;
      // Settled: no request to Lookout in flight for a second (the socket stays open and does not count).
      const until = Date.now() + waitMs;
      let quietSince = Date.now();
      while (Date.now() < until) {
        const busy = [...pending].some((r) => r.resourceType() !== "websocket");
        if (busy) quietSince = Date.now();
        else if (Date.now() - quietSince > 1500) break;
        await page.waitForTimeout(250);
      }
      // Charts below the fold render when scrolled to: scroll through the page, then let their animation end.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
          window.scrollTo(0, y);
          await new Promise((r) => setTimeout(r, 400));
        }
        window.scrollTo(0, 0);
      });
      await page.waitForTimeout(3000);
    } catch (e) {
      error = String(e.message ?? e).split("\n")[0];
    }
    const file = join(
      out,
      `${path
        .replace(/^\/$/, "home")
        .replace(/[^a-zA-Z0-9]+/g, "_")
        .replace(/^_|_$/g, "")}.png`,
    );
    const shot = await page.screenshot({ path: file, fullPage: true, timeout: 60_000 }).then(
      () => null,
      (e) => String(e.message ?? e).split("\n")[0],
    );
    if (shot) error = error ?? `screenshot: ${shot}`;
    const bad = requests.filter((r) => r.status < 200 || r.status > 299);
    if (
      bad.length ||
      sockets.some((s) => s.error) ||
      failedRequests.some((f) => !f.url.startsWith("/_next")) ||
      error ||
      status >= 400
    )
      failed = true;
    report.pages.push({
      path,
      status,
      error,
      screenshot: file,
      requests,
      bad,
      failedRequests,
      sockets,
      consoleErrors,
    });
    console.log(
      `${path}: page ${status}${error ? ` (${error})` : ""}, ${requests.length} requests to Lookout, ` +
        `${bad.length} not 2xx, ${failedRequests.length} failed, ${consoleErrors.length} console errors -> ${file}`,
    );
    for (const r of bad) console.log(`  ${r.status} ${r.method} ${r.path}`);
    for (const f of failedRequests) console.log(`  failed ${f.url}: ${f.error}`);
    for (const s of sockets)
      console.log(
        `  socket ${s.path}: ${s.framesReceived} frames received${s.error ? `, error ${s.error}` : ""}`,
      );
    for (const c of consoleErrors.slice(0, 10)) console.log(`  console: ${c}`);
    await page.close();
  }
} catch (e) {
  failed = true;
  report.error = String(e.message ?? e);
  console.error(report.error);
  console.error(serverLog.join("").slice(-4000));
} finally {
  await browser?.close().catch(() => {});
  stopFrontend();
}
writeFileSync(join(out, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
console.log(`report: ${join(out, "report.json")}`);
process.exit(failed ? 1 : 0);
