// Preloaded (`node --import`) into the server a load benchmark drives: the longest event-loop
// delay (perf_hooks.monitorEventLoopDelay) and the peak RSS, written to BENCH_LOOP_STATS every
// 200 ms. SIGUSR2 closes the current measurement window (its stats go to BENCH_LOOP_STATS.window
// with an increasing `window` number) and starts a new one, so a benchmark measures exactly the
// span between two signals. Needs no change to the server's code, so the
// same numbers come from the code before and after a change.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

// Worker threads inherit `--import`: without this check the render worker (whose loop is meant to
// block) wrote its own never-reset stats to the same file, which the bench then reported.
const file = isMainThread ? process.env.BENCH_LOOP_STATS : undefined;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let rssMax = 0;
  // Garbage-collection pauses, to tell a collector pause from a long task in the longest delay.
  let gcMax = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMax = Math.max(gcMax, entry.duration);
  }).observe({ entryTypes: ['gc'] });
  let windows = 0;
  const write = (target = file) => {
    const rss = process.memoryUsage().rss;
    rssMax = Math.max(rssMax, rss);
    const ms = (ns) => Math.round((ns / 1e6) * 10) / 10;
    writeFileSync(
      target,
      JSON.stringify({
        window: windows,
        max_ms: ms(histogram.max),
        p99_ms: ms(histogram.percentile(99)),
        rss_mb: Math.round(rss / 2 ** 20),
        rss_max_mb: Math.round(rssMax / 2 ** 20),
        gc_max_ms: Math.round(gcMax * 10) / 10,
      }),
    );
  };
  setInterval(write, 200).unref();
  process.on('SIGUSR2', () => {
    write(`${file}.window`);
    windows += 1;
    histogram.reset();
    rssMax = 0;
    gcMax = 0;
    write();
  });
}
