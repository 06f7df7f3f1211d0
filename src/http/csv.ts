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

/** Chunks read before the answer starts: the header line and the first statement's rows. */
const READ_AHEAD = 2;

/**
 * Streams CSV lines as Blockscout's CSV exports answer: 200, `application/csv`, `content-disposition: attachment;`
 * and the `csv-downloaded` cookie its older frontends wait for. Lines are pulled as the client reads (the stream's
 * back-pressure), so a slow client holds one chunk, not the export. The header and the first rows are read before
 * the status is sent, so a database that is down or times out on the first statement gets the route's error answer
 * (503 with Retry-After) rather than a 200 cut short after its header line.
 */
export async function sendCsv(reply: FastifyReply, lines: AsyncIterable<string>): Promise<FastifyReply> {
  const it = lines[Symbol.asyncIterator]();
  const first: string[] = [];
  for (let i = 0; i < READ_AHEAD; i++) {
    const r = await it.next();
    if (r.done) break;
    first.push(r.value);
  }
  async function* all() {
    try {
      yield* first;
      for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
    } finally {
      // A client that leaves ends the export's statements too.
      await it.return?.();
    }
  }
  return reply
    .code(200)
    .header("content-type", "application/csv")
    .header("content-disposition", "attachment;")
    .header("set-cookie", "csv-downloaded=true; path=/; max-age=86400")
    .send(Readable.from(all(), { objectMode: false }));
}

/** The 2xx response of a CSV route as the OpenAPI document shows it (a streamed `application/csv` body). */
export const CSV_RESPONSE = {
  description: "CSV, streamed (application/csv)",
  content: { "application/csv": { schema: { type: "string" } } },
};
