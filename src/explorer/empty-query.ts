import type { FastifyInstance } from "fastify";

/**
 * The frontend sends an empty filter as an empty member (`type=`, `filter=`: an empty array joined); Blockscout
 * reads it as no filter. Optional members that are empty are dropped before validation, so they mean "absent";
 * a required member stays (and is validated as sent).
 */
export function dropEmptyOptionalQuery(app: FastifyInstance): void {
  app.addHook("preValidation", async (req) => {
    const query = req.query as Record<string, unknown> | undefined;
    if (!query || typeof query !== "object") return;
    const schema = req.routeOptions.schema?.querystring as { required?: string[] } | undefined;
    const required = new Set(schema?.required ?? []);
    for (const [key, value] of Object.entries(query)) {
      if (value === "" && !required.has(key)) delete query[key];
    }
  });
}
