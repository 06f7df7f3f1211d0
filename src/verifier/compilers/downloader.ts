import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { chmod, mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { type Checksum, formatChecksum, hashFile, parseChecksum } from "./checksum.js";
import { CompilerError } from "./errors.js";
import type { Logger } from "./types.js";

export type DownloadSource = { url: string; checksum: Checksum };

export type DownloaderOptions = {
  fetch: typeof fetch;
  logger: Logger;
  attempts: number;
  backoffMs: number;
  timeoutMs?: number;
};

/** The expected checksum of a cached file is stored beside it, so a cache can be checked while offline. */
export const sidecarOf = (path: string) => `${path}.checksum`;

async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

async function removeQuietly(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}

/**
 * Puts verified compiler files into the cache: one download per file however many callers wait for it,
 * checksum checked before the file appears under its final name, corrupt cached files replaced.
 */
export class Downloader {
  private readonly inflight = new Map<string, Promise<string>>();
  /** path -> "size:mtime" at the last successful check, so a file is hashed once per process. */
  private readonly verified = new Map<string, string>();
  /** Counts real HTTP downloads; tests read it. */
  downloads = 0;

  constructor(private readonly opts: DownloaderOptions) {}

  /** Returns `dest` once it holds a verified file; downloads from `source` when needed. */
  ensure(dest: string, source: DownloadSource | undefined, executable: boolean): Promise<string> {
    const running = this.inflight.get(dest);
    if (running) return running;
    const p = this.ensureNow(dest, source, executable).finally(() => this.inflight.delete(dest));
    this.inflight.set(dest, p);
    return p;
  }

  private async ensureNow(dest: string, source: DownloadSource | undefined, executable: boolean) {
    if (await this.isValid(dest, source?.checksum)) return dest;
    if (!source) {
      throw new CompilerError("unavailable", "This compiler version is not available offline", {
        details: dest,
      });
    }
    await mkdir(dirname(dest), { recursive: true });
    let last: unknown;
    for (let attempt = 0; attempt < this.opts.attempts; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, this.opts.backoffMs * 2 ** (attempt - 1)));
      try {
        await this.downloadOnce(dest, source, executable);
        return dest;
      } catch (e) {
        last = e;
        this.opts.logger.warn(
          { url: source.url, attempt: attempt + 1, err: String(e) },
          "compiler download failed",
        );
      }
    }
    if (last instanceof CompilerError) throw last;
    throw new CompilerError("download", "The compiler could not be downloaded", {
      details: `${source.url}: ${last instanceof Error ? last.message : String(last)}`,
      cause: last,
    });
  }

  private async isValid(dest: string, expected: Checksum | undefined): Promise<boolean> {
    const st = await stat(dest).catch(() => undefined);
    if (!st) return false;
    const stamp = `${st.size}:${st.mtimeMs}`;
    const recorded = parseChecksum(await readFile(sidecarOf(dest), "utf8").catch(() => ""));
    const want = expected ?? recorded;
    if (want && this.verified.get(dest) === `${stamp}:${formatChecksum(want)}`) return true;
    if (want && (await hashFile(dest, want.algorithm)) === want.hex) {
      if (!recorded || formatChecksum(recorded) !== formatChecksum(want)) {
        await writeAtomic(sidecarOf(dest), formatChecksum(want));
      }
      this.verified.set(dest, `${stamp}:${formatChecksum(want)}`);
      return true;
    }
    this.opts.logger.warn({ path: dest }, "cached compiler is corrupt or unverifiable; replacing it");
    this.verified.delete(dest);
    await removeQuietly(dest);
    await removeQuietly(sidecarOf(dest));
    return false;
  }

  private async downloadOnce(dest: string, source: DownloadSource, executable: boolean): Promise<void> {
    // Written under a temporary name and renamed only once verified: an interrupted download leaves nothing usable.
    const tmp = `${dest}.${randomBytes(6).toString("hex")}.part`;
    try {
      this.downloads++;
      const res = await this.opts.fetch(source.url, {
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 600_000),
      });
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(tmp));
      const actual = await hashFile(tmp, source.checksum.algorithm);
      if (actual !== source.checksum.hex) {
        throw new CompilerError(
          "checksum",
          "The downloaded compiler does not match the checksum of its list",
          {
            details: `${source.url}: expected ${source.checksum.algorithm} ${source.checksum.hex}, got ${actual}`,
          },
        );
      }
      if (executable) await chmod(tmp, 0o755);
      await writeAtomic(sidecarOf(dest), formatChecksum(source.checksum));
      await rename(tmp, dest);
      const st = await stat(dest);
      this.verified.set(dest, `${st.size}:${st.mtimeMs}:${formatChecksum(source.checksum)}`);
      this.opts.logger.info({ url: source.url, path: dest }, "compiler downloaded");
    } finally {
      await removeQuietly(tmp);
    }
  }
}
