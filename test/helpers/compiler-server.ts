/**
 * A local HTTP server that plays binaries.soliditylang.org (or any file host) in tests: it serves compiler lists
 * in the solc-bin format and the files they name, counts requests, and can misbehave on purpose (wrong checksum,
 * connection cut mid-file, slow responses).
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { keccak256 } from "viem";

export type ServedFile = {
  body: Buffer;
  contentType?: string;
  /** Send only this many bytes, then destroy the connection. */
  cutAfterBytes?: number;
  /** Wait before answering. */
  delayMs?: number;
};

export type ListBuild = {
  longVersion: string;
  /** File name or URL, as it appears in the list's `path`; resolved against the list's URL. */
  path: string;
  body: Buffer;
  /** Override the checksum the list announces (to test rejection). */
  sha256?: string;
  /** Leave sha256 out of the list (as old lists did) so only keccak256 remains. */
  omitSha256?: boolean;
  /** Vyper-list style: sha256 without 0x and no keccak256. */
  vyperStyle?: boolean;
};

export type CompilerServer = {
  url: string;
  /** Serves `body` at `path` (leading slash). */
  serve(path: string, file: ServedFile | Buffer | string): void;
  /** Serves a list at `listPath` and each build's file beside it (relative paths) or at its own path. */
  serveList(listPath: string, builds: ListBuild[]): void;
  /** How many requests reached `path`. */
  hits(path: string): number;
  close(): Promise<void>;
};

const sha256Hex = (b: Buffer) => createHash("sha256").update(b).digest("hex");

export async function startCompilerServer(): Promise<CompilerServer> {
  const files = new Map<string, ServedFile>();
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const file = files.get(path);
    const answer = () => {
      if (!file) {
        res.writeHead(404).end("not found");
        return;
      }
      res.writeHead(200, {
        "content-type": file.contentType ?? "application/octet-stream",
        "content-length": String(file.body.length),
      });
      if (file.cutAfterBytes !== undefined) {
        res.write(file.body.subarray(0, file.cutAfterBytes), () => res.destroy());
      } else {
        res.end(file.body);
      }
    };
    if (file?.delayMs) setTimeout(answer, file.delayMs);
    else answer();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const api: CompilerServer = {
    url,
    serve(path, file) {
      const f = Buffer.isBuffer(file) || typeof file === "string" ? { body: Buffer.from(file) } : file;
      files.set(path, f);
    },
    serveList(listPath, builds) {
      const listUrl = new URL(listPath, url);
      const entries = builds.map((b) => {
        const fileUrl = new URL(b.path, listUrl);
        if (fileUrl.origin === url) api.serve(decodeURIComponent(fileUrl.pathname), { body: b.body });
        const sha = b.sha256 ?? sha256Hex(b.body);
        const [version, build] = b.longVersion.split("+");
        if (b.vyperStyle) return { path: b.path, version, build, longVersion: b.longVersion, sha256: sha };
        return {
          path: b.path,
          version,
          build,
          longVersion: b.longVersion,
          keccak256: keccak256(b.body),
          ...(b.omitSha256 ? {} : { sha256: `0x${sha}` }),
          urls: [],
        };
      });
      api.serve(listPath, {
        body: Buffer.from(JSON.stringify({ builds: entries, releases: {}, latestRelease: "" })),
        contentType: "application/json",
      });
    },
    hits: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  return api;
}
