// Preloaded into a measured server when BENCH_LOOP_DELAY is set: the event loop's delay, as
// Node measures it, the process's CPU time, and its garbage collections. Each SIGWINCH writes
// what was seen since the one before to $BENCH_LOOP_DELAY/<pid>.json and starts again: p50, p99,
// max, cpuMs and gcMs in ms, gcs (collections), allocatedKb (what the JavaScript heap grew by
// between collections: the garbage a piece of work makes, which decides how often the
// collector stops the loop).
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { GCProfiler, getHeapStatistics } from 'node:v8';

const RESOLUTION_MS = 10;
const dir = process.env.BENCH_LOOP_DELAY;
if (dir) {
  const h = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  h.enable();
  let cpu = process.cpuUsage();
  let gcProfiler = new GCProfiler();
  gcProfiler.start();
  let usedAtStart = getHeapStatistics().used_heap_size;
  /** What the heap grew by between collections since the last sample, and their time. */
  const collections = () => {
    const { statistics } = gcProfiler.stop();
    let allocated = 0;
    let used = usedAtStart;
    let costUs = 0;
    for (const s of statistics) {
      allocated += Math.max(0, s.beforeGC.heapStatistics.usedHeapSize - used);
      used = s.afterGC.heapStatistics.usedHeapSize;
      costUs += s.cost;
    }
    const now = getHeapStatistics().used_heap_size;
    allocated += Math.max(0, now - used);
    gcProfiler = new GCProfiler();
    gcProfiler.start();
    usedAtStart = now;
    return {
      gcs: statistics.length,
      gcMs: Math.round(costUs / 10) / 100,
      allocatedKb: Math.round(allocated / 1024),
    };
  };
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
      ...collections(),
    };
    const file = path.join(dir, `${process.pid}.json`);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(seen));
    fs.renameSync(`${file}.tmp`, file);
    h.reset();
  });
}
