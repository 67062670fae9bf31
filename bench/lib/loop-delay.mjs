// Preloaded into a measured server when BENCH_LOOP_DELAY is set: the event loop's delay, as
// Node measures it, and the process's CPU time. Each SIGWINCH writes what was seen since the one
// before to $BENCH_LOOP_DELAY/<pid>.json (p50, p99, max, cpuMs in ms) and starts again.
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const RESOLUTION_MS = 10;
const dir = process.env.BENCH_LOOP_DELAY;
if (dir) {
  const h = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  h.enable();
  let cpu = process.cpuUsage();
  process.on('SIGWINCH', () => {
    // The monitor times a repeating timer of RESOLUTION_MS and records the whole gap between
    // its runs, so an idle loop reads ~10.1 ms: what was late is only what exceeds the interval.
    const ms = (ns) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 100) / 100);
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const seen = {
      p50: ms(h.percentile(50)),
      p99: ms(h.percentile(99)),
      max: ms(h.max),
      // Every thread's: V8's compiler and GC helpers work beside the event loop.
      cpuMs: Math.round((used.user + used.system) / 1000),
    };
    const file = path.join(dir, `${process.pid}.json`);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(seen));
    fs.renameSync(`${file}.tmp`, file);
    h.reset();
  });
}
