import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EventBus } from "../../events/bus.js";
import { createLogger } from "../../util/logger.js";
import { indexerStages } from "./index.js";

const here = dirname(fileURLToPath(import.meta.url));

describe("the stages' ids", () => {
  it("are unique and name each stage's folder (or its one file) under indexer/stages/", () => {
    const ids = indexerStages({ logger: createLogger("silent"), bus: new EventBus(), notify: false }).map(
      (s) => s.id,
    );
    expect(new Set(ids).size).toBe(ids.length);
    // A stage that shares the folder of the stage whose rows it reads (current-balances in balances/) is the file
    // named by its id there.
    const folders = readdirSync(here, { withFileTypes: true }).filter((d) => d.isDirectory());
    const missing = ids.filter(
      (id) =>
        !existsSync(join(here, id, "extension.ts")) &&
        !existsSync(join(here, `${id}.ts`)) &&
        !folders.some((d) => existsSync(join(here, d.name, `${id}.ts`))),
    );
    expect(missing).toEqual([]);
    expect(ids).toContain("balances");
    expect(ids).toContain("auto-verify");
    expect(ids).toContain("live-notify");
  });
});
