import pino from "pino";
import pretty from "pino-pretty";

export type Logger = pino.Logger;

/**
 * JSON lines for machines (files, pipes, log collectors); human lines when stdout is a terminal. Both synchronous,
 * so the last lines of a shutdown are never lost.
 */
export function createLogger(level: string, opts: { name?: string; pretty?: boolean } = {}): Logger {
  const base = { level, ...(opts.name ? { name: opts.name } : {}) };
  if (opts.pretty ?? process.stdout.isTTY === true)
    return pino(
      base,
      pretty({ sync: true, colorize: true, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname" }),
    );
  return pino(base, pino.destination({ dest: 1, sync: true }));
}
