import { createRequire } from 'node:module';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';

type PromClient = typeof import('prom-client');
let promClient: PromClient | undefined;
let registry: Registry | undefined;

/**
 * prom-client, loaded on the first metric: this module is light to import (the observability index
 * is imported by `baton mcp`'s start, which records no metric before its first answer).
 */
function prom(): PromClient {
  promClient ??= createRequire(import.meta.url)('prom-client') as PromClient;
  return promClient;
}

/** The registry every Baton metric registers in; `/metrics` serves it (created on first use). */
export function metricsRegistry(): Registry {
  registry ??= new (prom().Registry)();
  return registry;
}

const counters = new Map<string, Counter<string>>();
const gauges = new Map<string, Gauge<string>>();
const histograms = new Map<string, Histogram<string>>();

/** Returns the named counter, creating it once (modules call this at use, not import). */
export function counter(name: string, help: string, labelNames: string[] = []): Counter<string> {
  let c = counters.get(name);
  if (!c) {
    c = new (prom().Counter)({ name, help, labelNames, registers: [metricsRegistry()] });
    counters.set(name, c);
  }
  return c;
}

export function gauge(name: string, help: string, labelNames: string[] = []): Gauge<string> {
  let g = gauges.get(name);
  if (!g) {
    g = new (prom().Gauge)({ name, help, labelNames, registers: [metricsRegistry()] });
    gauges.set(name, g);
  }
  return g;
}

export function histogram(name: string, help: string, labelNames: string[] = [], buckets?: number[]): Histogram<string> {
  let h = histograms.get(name);
  if (!h) {
    h = new (prom().Histogram)({ name, help, labelNames, registers: [metricsRegistry()], ...(buckets ? { buckets } : {}) });
    histograms.set(name, h);
  }
  return h;
}

/** Prometheus text exposition of every Baton metric. */
export function renderMetrics(): Promise<string> {
  return metricsRegistry().metrics();
}
