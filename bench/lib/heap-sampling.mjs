// Preloaded when BENCH_HEAP_PROF is set: V8's sampling heap profiler, counting collected objects
// too (what a write allocates, garbage included). The first SIGWINCH starts it, the next writes
// $BENCH_HEAP_PROF/<pid>-<n>.heapprofile and starts again.
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

const dir = process.env.BENCH_HEAP_PROF;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  let running = false;
  let n = 0;
  const start = () =>
    session.post(
      'HeapProfiler.startSampling',
      {
        samplingInterval: 1024,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      },
      (err) => {
        if (err) console.error('heap sampling', err);
      },
    );
  session.post('HeapProfiler.enable', () => {});
  process.on('SIGWINCH', () => {
    if (!running) {
      start();
      running = true;
      return;
    }
    session.post('HeapProfiler.stopSampling', (err, r) => {
      if (err) {
        console.error(err);
        return;
      }
      fs.writeFileSync(
        path.join(dir, `${process.pid}-${n++}.heapprofile`),
        JSON.stringify(r.profile),
      );
      start();
    });
  });
}
