import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { keccak256 } from "viem";

export type Checksum = { algorithm: "sha256" | "keccak256"; hex: string };

/** sha256 when the list has it (streamed); keccak256 only for lists that carry nothing else. */
export function checksumOf(build: { sha256?: string | undefined; keccak256?: string | undefined }): Checksum {
  if (build.sha256) return { algorithm: "sha256", hex: build.sha256 };
  if (build.keccak256) return { algorithm: "keccak256", hex: build.keccak256 };
  throw new Error("build has no checksum");
}

export async function hashFile(path: string, algorithm: Checksum["algorithm"]): Promise<string> {
  if (algorithm === "keccak256") return keccak256(await readFile(path)).slice(2);
  const h = createHash("sha256");
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest("hex");
}

export function formatChecksum(c: Checksum): string {
  return `${c.algorithm}:${c.hex}`;
}

export function parseChecksum(text: string): Checksum | undefined {
  const m = /^(sha256|keccak256):([0-9a-f]{64})\s*$/.exec(text);
  return m ? { algorithm: m[1] as Checksum["algorithm"], hex: m[2]! } : undefined;
}
