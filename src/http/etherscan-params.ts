/**
 * Request parameters of the Etherscan API, from the query string and the form (or JSON) body together: forge puts
 * `module`/`action` in the body, hardhat-verify in the query. Names are matched case-insensitively (clients
 * disagree on `sourceCode`/`sourcecode`); the body wins over the query.
 */
export class Params {
  private readonly values = new Map<string, string>();
  /** The files of a multipart body (Blockscout's `verify_via_sourcify` takes `files[i]`), in the order sent. */
  files: ReadonlyArray<{ name: string; content: string }> = [];

  constructor(...sources: unknown[]) {
    for (const s of sources) {
      if (typeof s !== "object" || s === null || Array.isArray(s)) continue;
      for (const [k, v] of Object.entries(s)) {
        const value = Array.isArray(v) ? v[0] : v;
        // An empty value never hides a non-empty one from the other source.
        if (value === undefined || value === null || value === "") continue;
        this.values.set(k.toLowerCase(), typeof value === "string" ? value : String(value));
      }
    }
  }

  /** The trimmed value, or undefined when absent or empty. */
  get(name: string): string | undefined {
    const v = this.values.get(name.toLowerCase())?.trim();
    return v === undefined || v === "" ? undefined : v;
  }

  /** The raw value (sources are not trimmed). */
  raw(name: string): string | undefined {
    return this.values.get(name.toLowerCase());
  }

  /** `libraryname1..N` / `libraryaddress1..N` pairs (Etherscan numbers them from 1; we accept up to 20). */
  libraries(): Record<string, string> {
    const out: Record<string, string> = {};
    for (let i = 1; i <= 20; i++) {
      const name = this.get(`libraryname${i}`);
      const address = this.get(`libraryaddress${i}`);
      if (name && address) out[name] = address;
    }
    return out;
  }
}
