import { loadKZG } from "kzg-wasm";
import { bytesToHex, hexToBytes, type Kzg } from "viem";

let loaded: Promise<Kzg> | undefined;

/**
 * viem's KZG interface over kzg-wasm (c-kzg-4844 compiled to WebAssembly, with the ceremony's trusted setup): what
 * viem needs to send blob transactions. kzg-wasm speaks hex strings, viem byte arrays.
 */
export function wasmKzg(): Promise<Kzg> {
  loaded ??= loadKZG().then((k) => ({
    blobToKzgCommitment: (blob) => hexToBytes(k.blobToKZGCommitment(bytesToHex(blob)) as `0x${string}`),
    computeBlobKzgProof: (blob, commitment) =>
      hexToBytes(k.computeBlobKZGProof(bytesToHex(blob), bytesToHex(commitment)) as `0x${string}`),
  }));
  return loaded;
}
