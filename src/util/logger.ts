import pino from "pino";

export type Logger = pino.Logger;

export function createLogger(level: string, opts: { name?: string } = {}): Logger {
  return pino(
    { level, ...(opts.name ? { name: opts.name } : {}) },
    pino.destination({ dest: 1, sync: true }),
  );
}
