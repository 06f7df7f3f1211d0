import pino from "pino";
import pretty from "pino-pretty";

export type Logger = pino.Logger;

/** Human lines only for a person at a terminal; anything else (a file, a pipe, a log collector) gets JSON. */
export const isTerminal = (): boolean => process.stdout.isTTY === true;

/**
 * JSON lines for machines (files, pipes, log collectors); human lines when stdout is a terminal. Both synchronous,
 * so the last lines of a shutdown are never lost. Everything Lookout prints while running goes through here (the
 * local chain's banner included), so a log file is JSON from its first line to its last.
 */
export function createLogger(level: string, opts: { name?: string; pretty?: boolean } = {}): Logger {
  const base = { level, ...(opts.name ? { name: opts.name } : {}) };
  if (opts.pretty ?? isTerminal())
    return pino(
      base,
      pretty({ sync: true, colorize: true, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname" }),
    );
  return pino(base, pino.destination({ dest: 1, sync: true }));
}
