// Logs: one JSON object a line in production (for log collectors), a short readable line in
// development. Either way a request is one line after its answer, and requests for static files
// and health checks that went well are debug, so a page load is not a screenful.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { API_PATH } from '@sagan/shared/http';
import { BASE_PATH } from '@sagan/shared/routes';

export type LogFormat = 'json' | 'pretty';

/**
 * LOG_FORMAT=json|pretty, or unset: pretty on a terminal outside production, JSON otherwise
 * (a pipe or a file gets JSON, so `npm start > log` stays machine-readable).
 */
export function resolveLogFormat(
  setting: LogFormat | undefined,
  nodeEnv: string | undefined,
  stdoutIsTTY: boolean,
): LogFormat {
  if (setting) return setting;
  return nodeEnv !== 'production' && stdoutIsTTY ? 'pretty' : 'json';
}

const LEVELS: Record<number, [name: string, color: number]> = {
  10: ['TRACE', 90],
  20: ['DEBUG', 36],
  30: ['INFO ', 32],
  40: ['WARN ', 33],
  50: ['ERROR', 31],
  60: ['FATAL', 35],
};
/** Pino's own fields, and the ones a request line already says in its message. */
const SHOWN_ELSEWHERE = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'reqId',
  'req',
  'res',
  'responseTime',
  'err',
]);

/** One pino JSON line as a compact line: `12:04:31 INFO  message key=value`, then any stack. */
export function prettyLine(json: string, color: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const [name, code] = LEVELS[entry.level as number] ?? ['LOG  ', 0];
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now())
    .toISOString()
    .slice(11, 19);
  const level = color ? `\x1b[${code}m${name}\x1b[0m` : name;
  const extra = Object.entries(entry)
    .filter(([key]) => !SHOWN_ELSEWHERE.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const stack = err ? `\n    ${(err.stack ?? err.message ?? '').replace(/\n/g, '\n    ')}` : '';
  return `${time} ${level} ${[entry.msg ?? '', ...extra].join('  ')}${stack}\n`;
}

/** The Fastify logger for a config: its level, and pretty lines written to `out` if asked. */
export function loggerOptions(
  config: { logLevel: string; logFormat: LogFormat },
  out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout,
): NonNullable<FastifyServerOptions['logger']> {
  if (config.logFormat === 'json') return { level: config.logLevel };
  const color = !!out.isTTY;
  return {
    level: config.logLevel,
    stream: { write: (line: string) => void out.write(prettyLine(line, color)) },
  };
}

/** Static files (anything under the app's path with a file extension) and health checks. */
function isRoutine(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  if (path === `${API_PATH}/health` || path.startsWith(`${API_PATH}/docs/static/`)) return true;
  return (
    path.startsWith(`${BASE_PATH}/`) &&
    !path.startsWith(`${API_PATH}/`) &&
    /\.[A-Za-z0-9]+$/.test(path)
  );
}

/**
 * One line per request, after the answer (Fastify's own two lines are turned off in app.ts):
 * info, or debug for routine requests that went well.
 */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onResponse', async (req, reply) => {
    const status = reply.statusCode;
    const ms = Math.round(reply.elapsedTime);
    const level = status < 400 && isRoutine(req.url) ? 'debug' : 'info';
    req.log[level](
      { req: { method: req.method, url: req.url }, res: { statusCode: status }, responseTime: ms },
      `${req.method} ${req.url} ${status} ${ms} ms`,
    );
  });
}
