import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

export type Checksum = { algorithm: "sha256" | "keccak256"; hex: string };

/** sha256 when the list has it (streamed); keccak256 only for lists that carry nothing else. */
export function checksumOf(build: { sha256?: string | undefined; keccak256?: string | undefined }): Checksum {
  if (build.sha256) return { algorithm: "sha256", hex: build.sha256 };
  if (build.keccak256) return { algorithm: "keccak256", hex: build.keccak256 };
  throw new Error("build has no checksum");
}

// js-sha3 comes with solc (which uses it to check soljson files); resolved through solc so it is always there.
const jsSha3Path = createRequire(createRequire(import.meta.url).resolve("solc/package.json")).resolve(
  "js-sha3",
);
const KECCAK_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const data = require("node:fs").readFileSync(workerData.path);
parentPort.postMessage(require(workerData.lib).keccak256(data));
`;

/** keccak256 of a compiler takes seconds in JavaScript, so it runs in a worker thread, off the event loop. */
function keccakInWorker(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(KECCAK_WORKER, { eval: true, workerData: { lib: jsSha3Path, path } });
    worker.once("message", (hex: string) => {
      resolve(hex);
      void worker.terminate();
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`keccak worker exited (${code})`)));
  });
}

export async function hashFile(path: string, algorithm: Checksum["algorithm"]): Promise<string> {
  if (algorithm === "keccak256") return keccakInWorker(path);
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
