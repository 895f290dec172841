/**
 * A small levelled logger writing to stderr (stdout carries only the startup line).
 */
export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  /** The lowest level written; a logger without it gets every message and filters itself. */
  readonly level?: LogLevel;
}

export function createLogger(
  level: LogLevel = 'info',
  write: (line: string) => void = (l) => process.stderr.write(l + '\n'),
): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const at = (lvl: LogLevel) => (message: string) => {
    if (LOG_LEVELS.indexOf(lvl) <= rank) write(`[notification-emulator] ${lvl}: ${message}`);
  };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), level };
}
