import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The registry every Baton metric registers in; `/metrics` serves it. */
export const metricsRegistry = new Registry();

const counters = new Map<string, Counter<string>>();
const gauges = new Map<string, Gauge<string>>();
const histograms = new Map<string, Histogram<string>>();

/** Returns the named counter, creating it once (modules call this at use, not import). */
export function counter(name: string, help: string, labelNames: string[] = []): Counter<string> {
  let c = counters.get(name);
  if (!c) {
    c = new Counter({ name, help, labelNames, registers: [metricsRegistry] });
    counters.set(name, c);
  }
  return c;
}

export function gauge(name: string, help: string, labelNames: string[] = []): Gauge<string> {
  let g = gauges.get(name);
  if (!g) {
    g = new Gauge({ name, help, labelNames, registers: [metricsRegistry] });
    gauges.set(name, g);
  }
  return g;
}

export function histogram(name: string, help: string, labelNames: string[] = [], buckets?: number[]): Histogram<string> {
  let h = histograms.get(name);
  if (!h) {
    h = new Histogram({ name, help, labelNames, registers: [metricsRegistry], ...(buckets ? { buckets } : {}) });
    histograms.set(name, h);
  }
  return h;
}

/** Prometheus text exposition of every Baton metric. */
export function renderMetrics(): Promise<string> {
  return metricsRegistry.metrics();
}
