import { describe, expect, it } from "vitest";
import { RequestActivity } from "./request-activity.js";

/** One turn of the event loop: resolves in the check phase after every setImmediate scheduled before it. */
const turn = () => new Promise<void>((r) => setImmediate(r));

describe("RequestActivity: what history waits on", () => {
  it("lets callers through at once while no request is in flight", async () => {
    const a = new RequestActivity();
    const order: string[] = [];
    const waited = a.idle().then(() => order.push("idle"));
    const next = turn().then(() => order.push("turn"));
    await Promise.all([waited, next]);
    expect(order).toEqual(["idle", "turn"]);
    expect(a.busy).toBe(false);
  });

  it("holds callers while a request is in flight, then lets them go one per turn, oldest first", async () => {
    const a = new RequestActivity(3_600_000);
    const woken: number[] = [];
    a.begin();
    a.begin();
    const waits = [1, 2, 3].map((i) => a.idle().then(() => woken.push(i)));
    expect(a.waiting).toBe(3);
    await turn();
    a.end();
    // One of two requests ended: still busy.
    await turn();
    expect(woken).toEqual([]);
    a.end();
    expect(a.busy).toBe(false);
    expect(a.busyWithin(60_000)).toBe(true);
    await turn();
    expect(woken).toEqual([1]);
    await turn();
    expect(woken).toEqual([1, 2]);
    // A request arriving now stops the rest until it ends.
    a.begin();
    await turn();
    await turn();
    expect(woken).toEqual([1, 2]);
    a.end();
    await Promise.all(waits);
    expect(woken).toEqual([1, 2, 3]);
    expect(a.waiting).toBe(0);
  });

  it("lets a caller go after its longest wait even while requests never stop", async () => {
    const a = new RequestActivity(5);
    a.begin();
    await a.idle();
    expect(a.busy).toBe(true);
    expect(a.waiting).toBe(0);
    a.end();
  });

  it("ignores an end without a begin", async () => {
    const a = new RequestActivity();
    a.end();
    a.begin();
    expect(a.busy).toBe(true);
    a.end();
    expect(a.busy).toBe(false);
  });
});
