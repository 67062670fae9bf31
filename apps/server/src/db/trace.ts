// SAGAN_DB_TRACE=<file>: each thread of the PGlite channel (db.ts, pglite-worker.ts) appends
// timing marks to <file>.<pid>.<thread>.jsonl, to line a slow write up with what either thread
// was doing then. Off (no cost but a check) unless set; for benchmarks, not for production.
import fs from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { isMainThread, threadId } from 'node:worker_threads';

type Mark = Record<string, unknown>;

/** Counters summed over each long turn of the event loop, reported with it (then zeroed). */
const turnCounts: Record<string, number> = {};
export function count(name: string, n = 1): void {
  turnCounts[name] = (turnCounts[name] ?? 0) + n;
}
const file = process.env.SAGAN_DB_TRACE;

/** Records mark at the wall-clock time `at` (performance.now()); undefined when tracing is off. */
export const trace: ((kind: string, at: number, fields?: Mark) => void) | undefined = file
  ? startTrace(file)
  : undefined;

function startTrace(prefix: string): (kind: string, at: number, fields?: Mark) => void {
  const out = `${prefix}.${process.pid}.${isMainThread ? 'main' : `thread${threadId}`}.jsonl`;
  let lines: string[] = [];
  const flush = () => {
    if (!lines.length) return;
    fs.appendFileSync(out, lines.join(''));
    lines = [];
  };
  const mark = (kind: string, at: number, fields: Mark = {}) => {
    const t = new Date(performance.timeOrigin + at).toISOString().slice(11, 23);
    lines.push(`${JSON.stringify({ t, kind, ...fields })}\n`);
  };
  setInterval(flush, 1000).unref();
  process.on('exit', flush);
  // Turns of this thread's event loop over 10 ms, seen by a 5 ms timer.
  let last = performance.now();
  let lastElu = performance.eventLoopUtilization();
  // The process's CPU time (every thread's, V8's helpers included) tells a turn that computed
  // from one that waited for a core on a busy machine.
  let lastCpu = process.cpuUsage();
  setInterval(() => {
    const now = performance.now();
    const elu = performance.eventLoopUtilization(lastElu);
    lastElu = performance.eventLoopUtilization();
    const cpu = process.cpuUsage(lastCpu);
    lastCpu = process.cpuUsage();
    if (now - last > 15) {
      const sums: Mark = {};
      for (const [k, v] of Object.entries(turnCounts)) sums[k] = +v.toFixed(1);
      mark('turn', last, {
        ms: Math.round(now - last),
        active: Math.round(elu.active),
        cpu: Math.round((cpu.user + cpu.system) / 1000),
        ...sums,
      });
    }
    for (const k of Object.keys(turnCounts)) delete turnCounts[k];
    last = now;
  }, 5).unref();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration > 2) mark('gc', e.startTime, { ms: +e.duration.toFixed(1) });
    }
  }).observe({ entryTypes: ['gc'] });
  return mark;
}

/** A statement as the trace names it: its first words, on one line. */
export function sqlLabel(sql: string): string {
  return sql.replace(/\s+/g, ' ').slice(0, 50);
}
