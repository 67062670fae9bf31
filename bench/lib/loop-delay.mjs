// Preloaded into a measured server when BENCH_LOOP_DELAY is set: the event loop's delay, as
// Node measures it. Each SIGWINCH writes what was seen since the one before to
// $BENCH_LOOP_DELAY/<pid>.json (p50, p99, max in ms) and starts again.
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const dir = process.env.BENCH_LOOP_DELAY;
if (dir) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  process.on('SIGWINCH', () => {
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    const seen = { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) };
    const file = path.join(dir, `${process.pid}.json`);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(seen));
    fs.renameSync(`${file}.tmp`, file);
    h.reset();
  });
}
