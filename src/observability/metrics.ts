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

/** Every metric made, by kind and name, so each is registered once. */
const made = new Map<string, Counter<string> | Gauge<string> | Histogram<string>>();

function once<M extends Counter<string> | Gauge<string> | Histogram<string>>(kind: string, name: string, make: () => M): M {
  const key = `${kind} ${name}`;
  let metric = made.get(key) as M | undefined;
  if (!metric) {
    metric = make();
    made.set(key, metric);
  }
  return metric;
}

/** Returns the named counter, creating it once (modules call this at use, not import). */
export function counter(name: string, help: string, labelNames: string[] = []): Counter<string> {
  return once('counter', name, () => new (prom().Counter)({ name, help, labelNames, registers: [metricsRegistry()] }));
}

export function gauge(name: string, help: string, labelNames: string[] = []): Gauge<string> {
  return once('gauge', name, () => new (prom().Gauge)({ name, help, labelNames, registers: [metricsRegistry()] }));
}

export function histogram(name: string, help: string, labelNames: string[] = [], buckets?: number[]): Histogram<string> {
  const options = { name, help, labelNames, registers: [metricsRegistry()], ...(buckets ? { buckets } : {}) };
  return once('histogram', name, () => new (prom().Histogram)(options));
}

/** Prometheus text exposition of every Baton metric. */
export function renderMetrics(): Promise<string> {
  return metricsRegistry().metrics();
}
