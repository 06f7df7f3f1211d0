import { describe, expect, it } from "vitest";
import { jobStatusEnvelope } from "../../verifier-apis/etherscan/view.js";
import { jobView } from "../../verifier-apis/sourcify/view.js";
import { outcomeOf } from "./outcome.js";
import type { Job } from "./types.js";

const ADDRESS = "0x00000000000000000000000000000000000000aa" as const;
const REASON = "the node keeps no state of old blocks (eth_getCode at block 3 failed: missing trie node)";

const job = (outcome: Job["outcome"]): Job => ({
  id: "0b7c5c3e-0000-4000-8000-000000000000",
  chainId: "31337",
  address: ADDRESS,
  state: "done",
  request: { language: "Solidity", compiler: "0.8.26", contracts: [{ chainId: "31337", address: ADDRESS }] },
  outcome,
  attempts: 1,
  createdAt: new Date(0),
  startedAt: new Date(0),
  finishedAt: new Date(1),
  durationMs: 1,
});

describe("why a verification was runtime-only, in the asynchronous dialects", () => {
  it("a runtime-only pass keeps the reason in its outcome; Etherscan's result stays the exact pass text", () => {
    const o = outcomeOf({
      kind: "verification",
      items: [
        {
          status: "PARTIALLY_VERIFIED",
          message: "ok",
          chainId: "31337",
          address: ADDRESS,
          matchType: "partial",
          creationMatch: null,
          runtimeMatch: "partial",
          creationUnavailable: REASON,
        },
      ],
    });
    expect(o).toMatchObject({ result: "verified", creationUnavailable: REASON });
    // Clients compare `result` with "Pass - Verified" exactly: the format has no place for the reason.
    expect(jobStatusEnvelope(job(o)).result).toBe("Pass - Verified");
  });

  it("a runtime-only failure says it in Etherscan's result and in Sourcify's message and errorData", () => {
    const message = `The compiled code does not match. Only the runtime code was compared: ${REASON}.`;
    const o = outcomeOf({
      kind: "verification",
      items: [
        {
          status: "FAILURE",
          message,
          chainId: "31337",
          address: ADDRESS,
          creationUnavailable: REASON,
          diagnosis: { reason: "no_match", message },
        },
      ],
    });
    expect(o).toMatchObject({ result: "failed", code: "no_match", creationUnavailable: REASON });
    expect(jobStatusEnvelope(job(o)).result).toContain(`Only the runtime code was compared: ${REASON}`);
    const view = jobView(job(o)) as { error?: { message: string; errorData?: Record<string, unknown> } };
    expect(view.error?.message).toContain(REASON);
    expect(view.error?.errorData).toMatchObject({ creationUnavailable: REASON });
  });
});
