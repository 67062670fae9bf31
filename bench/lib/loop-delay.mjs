// Preloaded into a measured server when BENCH_LOOP_DELAY is set: the event loop's delay, as
// Node measures it, the process's CPU time, and its garbage collections. Each SIGWINCH writes
// what was seen since the one before to $BENCH_LOOP_DELAY/<pid>.json and starts again: p50, p99,
// max, cpuMs, gcMs and majorGcMs in ms; gcs, majorGcs (the full mark-compacts among them) and
// byType (per V8's kind); newSpaceMb (the young generation's size after the last collection);
// allocatedKb (what the JavaScript heap grew by between collections: the garbage a piece of work
// makes, which decides how often the collector stops the loop).
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
    let majorGcs = 0;
    let majorUs = 0;
    const byType = {};
    for (const s of statistics) {
      byType[s.gcType] = (byType[s.gcType] ?? 0) + 1;
      if (s.gcType === 'MarkSweepCompact') {
        majorGcs++;
        majorUs += s.cost;
      }
      allocated += Math.max(0, s.beforeGC.heapStatistics.usedHeapSize - used);
      used = s.afterGC.heapStatistics.usedHeapSize;
      costUs += s.cost;
    }
    const newSpace = statistics
      .at(-1)
      ?.afterGC.heapSpaceStatistics.find((x) => x.spaceName === 'new_space');
    const now = getHeapStatistics().used_heap_size;
    allocated += Math.max(0, now - used);
    gcProfiler = new GCProfiler();
    gcProfiler.start();
    usedAtStart = now;
    return {
      majorGcs,
      byType,
      newSpaceMb: newSpace ? Math.round(newSpace.spaceSize / 10485.76) / 100 : 0,
      majorGcMs: Math.round(majorUs / 10) / 100,
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
