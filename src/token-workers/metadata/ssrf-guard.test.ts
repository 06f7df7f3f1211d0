import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { parseAllowedHosts } from "./allow-list.js";
import { checkTarget, createGuardedLookup, ForbiddenAddressError } from "./ssrf-guard.js";

type LookupOutcome = {
  err: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family?: number;
};

function runLookup(lookup: ReturnType<typeof createGuardedLookup>, all: boolean): Promise<LookupOutcome> {
  return new Promise((resolve) => {
    lookup("host.test", { all }, (err, address, family) => resolve({ err, address, family }));
  });
}

describe("createGuardedLookup()", () => {
  const answers = (list: string[]) => async () =>
    list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

  it("hands the socket exactly the checked public addresses (single and all)", async () => {
    const lookup = createGuardedLookup({
      allowListed: false,
      resolveAll: answers(["93.184.216.34", "2606:2800::1"]),
    });
    expect(await runLookup(lookup, false)).toEqual({ err: null, address: "93.184.216.34", family: 4 });
    expect((await runLookup(lookup, true)).address).toEqual([
      { address: "93.184.216.34", family: 4 },
      { address: "2606:2800::1", family: 6 },
    ]);
  });

  it("refuses when any answer is not public, unless the host is allow-listed", async () => {
    const resolveAll = answers(["93.184.216.34", "169.254.169.254"]);
    const refused = await runLookup(createGuardedLookup({ allowListed: false, resolveAll }), false);
    expect(refused.err).toBeInstanceOf(ForbiddenAddressError);
    expect(refused.err).toMatchObject({ code: "ERR_LOOKOUT_FORBIDDEN_ADDRESS", category: "link_local" });
    const allowed = await runLookup(createGuardedLookup({ allowListed: true, resolveAll }), false);
    expect(allowed).toMatchObject({ err: null, address: "93.184.216.34" });
  });

  it("passes DNS errors through", async () => {
    const resolveAll = async () => {
      throw Object.assign(new Error("nope"), { code: "ENOTFOUND" });
    };
    expect(
      (await runLookup(createGuardedLookup({ allowListed: false, resolveAll }), false)).err,
    ).toMatchObject({
      code: "ENOTFOUND",
    });
  });
});

describe("checkTarget()", () => {
  it("checks scheme, credentials and IP literals before any connection", () => {
    expect(checkTarget("http://8.8.8.8/x", [])).toMatchObject({ ok: true, allowListed: false });
    expect(checkTarget("http://10.0.0.1/x", [])).toMatchObject({ ok: false, reason: "forbidden_address" });
    expect(checkTarget("http://10.0.0.1/x", parseAllowedHosts("10.0.0.1"))).toMatchObject({
      ok: true,
      allowListed: true,
    });
    expect(checkTarget("http://[fe80::1]/x", [])).toMatchObject({ ok: false, reason: "forbidden_address" });
    expect(checkTarget("http://[fd00::1]:8080/x", parseAllowedHosts("[fd00::1]:8080"))).toMatchObject({
      ok: true,
    });
    expect(checkTarget("http://2130706433/x", [])).toMatchObject({ ok: false, reason: "forbidden_address" });
    expect(checkTarget("http://user:pw@example.com/x", [])).toMatchObject({
      ok: false,
      reason: "invalid_uri",
    });
    expect(checkTarget("file:///etc/passwd", parseAllowedHosts("localhost"))).toMatchObject({
      ok: false,
      reason: "unsupported_scheme",
    });
    expect(checkTarget("ftp://example.com/", [])).toMatchObject({ reason: "unsupported_scheme" });
  });
});
