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

/** The metric registered under `name`, made (and registered) on first use. */
function once<M extends Counter<string> | Gauge<string> | Histogram<string>>(name: string, make: () => M): M {
  return (metricsRegistry().getSingleMetric(name) as M | undefined) ?? make();
}

/** Returns the named counter, creating it once (modules call this at use, not import). */
export function counter(name: string, help: string, labelNames: string[] = []): Counter<string> {
  return once(name, () => new (prom().Counter)({ name, help, labelNames, registers: [metricsRegistry()] }));
}

export function gauge(name: string, help: string, labelNames: string[] = []): Gauge<string> {
  return once(name, () => new (prom().Gauge)({ name, help, labelNames, registers: [metricsRegistry()] }));
}

export function histogram(name: string, help: string, labelNames: string[] = [], buckets?: number[]): Histogram<string> {
  const options = { name, help, labelNames, registers: [metricsRegistry()], ...(buckets ? { buckets } : {}) };
  return once(name, () => new (prom().Histogram)(options));
}

/** Prometheus text exposition of every Baton metric. */
export function renderMetrics(): Promise<string> {
  return metricsRegistry().metrics();
}
