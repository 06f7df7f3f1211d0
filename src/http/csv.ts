import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";

/** A field as NimbleCSV's RFC 4180 dumper writes it: quoted (quotes doubled) when it holds `,`, `"`, CR or LF. */
function field(v: string | number | bigint | null | undefined): string {
  if (v === null || v === undefined) return "";
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One CSV line, CRLF-terminated (NimbleCSV.RFC4180). */
export function csvLine(fields: ReadonlyArray<string | number | bigint | null | undefined>): string {
  return `${fields.map(field).join(",")}\r\n`;
}

/**
 * Streams CSV lines as Blockscout's CSV exports answer: 200, `application/csv`, `content-disposition: attachment;`
 * and the `csv-downloaded` cookie its older frontends wait for. Lines are pulled as the client reads (the stream's
 * back-pressure), so a slow client holds one chunk, not the export.
 */
export function sendCsv(reply: FastifyReply, lines: AsyncIterable<string>): FastifyReply {
  return reply
    .code(200)
    .header("content-type", "application/csv")
    .header("content-disposition", "attachment;")
    .header("set-cookie", "csv-downloaded=true; path=/; max-age=86400")
    .send(Readable.from(lines, { objectMode: false }));
}

/** The 2xx response of a CSV route as the OpenAPI document shows it (a streamed `application/csv` body). */
export const CSV_RESPONSE = {
  description: "CSV, streamed (application/csv)",
  content: { "application/csv": { schema: { type: "string" } } },
};
