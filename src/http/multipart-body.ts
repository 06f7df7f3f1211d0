import type { FastifyRequest } from "fastify";
import { InvalidInputError, LookoutError } from "../errors/base.js";

/** A multipart body as text: its fields, and its files in the order sent (`field` is e.g. `files[0]`). */
export type MultipartBody = {
  fields: Record<string, string>;
  files: Array<{ field: string; name: string; content: string }>;
};

/**
 * Reads a multipart body (the parser's own limits apply, and `totalBytes` over all files); a body the parser
 * cannot read (no boundary, a wrong one, cut short) is the client's mistake, an InvalidInputError.
 */
export async function readMultipart(req: FastifyRequest, totalBytes: number): Promise<MultipartBody> {
  const out: MultipartBody = { fields: {}, files: [] };
  let total = 0;
  try {
    for await (const part of req.parts()) {
      if (part.type === "file") {
        const buf = await part.toBuffer();
        total += buf.length;
        if (total > totalBytes)
          throw new InvalidInputError(`The files exceed ${totalBytes} bytes in all`, { field: "files" });
        out.files.push({
          field: part.fieldname,
          name: part.filename || part.fieldname,
          content: buf.toString("utf8"),
        });
      } else {
        out.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (e) {
    // The route fuzz test found a malformed body answered 500; the parser's limit errors carry their 4xx already.
    const status = (e as { statusCode?: unknown }).statusCode;
    if (e instanceof LookoutError || (typeof status === "number" && status < 500)) throw e;
    throw new InvalidInputError(
      `Malformed multipart/form-data body: ${e instanceof Error ? e.message : String(e)}`,
      { field: "body", cause: e },
    );
  }
  return out;
}

/** Bounds of a multipart verification body (defaults: 5 MB a file, 100 files, 20 MB in all). */
export type MultipartLimits = { fileBytes?: number; files?: number; totalBytes?: number };

/** @fastify/multipart's options for these bounds (the total is checked by readMultipart). */
export const multipartOptions = (limits: MultipartLimits | undefined) => ({
  limits: {
    fileSize: limits?.fileBytes ?? 5 * 1024 * 1024,
    files: limits?.files ?? 100,
    fields: 50,
    fieldSize: 1024 * 1024,
    parts: 200,
  },
  throwFileSizeLimit: true,
});

/** The total bytes of all files a body may carry. */
export const multipartTotalBytes = (limits: MultipartLimits | undefined) =>
  limits?.totalBytes ?? 20 * 1024 * 1024;
