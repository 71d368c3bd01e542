// The relay's metrics registry on prom-client, which owns the text exposition format (escaping,
// histograms, HELP and TYPE lines). Two things stay ours: every metric declares its label names,
// and the number of label combinations per metric is capped, since a bug that put an unbounded
// value (a path, an address) into a label must not grow memory without end; callers pass closed
// sets (route patterns, status codes, reasons).
import { Counter as PromCounter, Gauge as PromGauge, Histogram as PromHistogram, Registry as PromRegistry } from 'prom-client';

export type Labels = Record<string, string>;

/** Label combinations a metric may hold; a new one beyond this is dropped. */
const MAX_SERIES_PER_METRIC = 500;

export interface Counter {
  inc(labels?: Labels): void;
}
export interface Gauge {
  set(value: number, labels?: Labels): void;
}
export interface Histogram {
  observe(value: number, labels?: Labels): void;
}

export interface Registry {
  counter(name: string, help: string, labelNames?: readonly string[]): Counter;
  gauge(name: string, help: string, labelNames?: readonly string[]): Gauge;
  histogram(name: string, help: string, buckets: readonly number[], labelNames?: readonly string[]): Histogram;
  /** Runs before every render, to refresh gauges that mirror state held elsewhere. */
  onCollect(collect: () => void | Promise<void>): void;
  /** Registries whose metrics are rendered after this one's (the process metrics). */
  append(other: PromRegistry): void;
  render(): Promise<string>;
  /** The exposition format's content type, for the /metrics answer. */
  readonly contentType: string;
}

/** One series' name among a metric's: its label values in the metric's label order. */
function seriesKey(labelNames: readonly string[], labels: Labels): string {
  let key = '';
  for (const name of labelNames) key += labels[name] + '\u0000';
  return key;
}

/** Whether a label set is one the metric may count: known already, or room for one more. */
function seriesGate(labelNames: readonly string[]): (labels: Labels) => boolean {
  const seen = new Set<string>();
  return (labels) => {
    const key = seriesKey(labelNames, labels);
    if (seen.has(key)) return true;
    if (seen.size >= MAX_SERIES_PER_METRIC) return false;
    seen.add(key);
    return true;
  };
}

/**
 * A labelled counter's increments, kept per series and handed to prom-client when /metrics is
 * rendered: prom-client hashes and checks the labels on every `inc`, and a flood counts two or
 * three series per request (~1 µs each); here an `inc` of a known series is one lookup.
 */
function pendingCounts(metric: PromCounter, labelNames: readonly string[]) {
  const series = new Map<string, { labels: Labels; pending: number }>();
  return {
    inc(labels: Labels): void {
      const key = seriesKey(labelNames, labels);
      const known = series.get(key);
      if (known !== undefined) known.pending++;
      else if (series.size < MAX_SERIES_PER_METRIC) {
        // Shown (at 0) and its labels checked now, as prom-client's own inc would: a label the metric does not declare throws here, not at the next scrape.
        metric.inc(labels, 0);
        series.set(key, { labels: { ...labels }, pending: 1 });
      }
    },
    flush(): void {
      for (const s of series.values()) {
        if (s.pending === 0) continue;
        metric.inc(s.labels, s.pending);
        s.pending = 0;
      }
    },
  };
}

export function createRegistry(): Registry {
  const registry = new PromRegistry();
  const collectors: Array<() => void | Promise<void>> = [];
  const counted: Array<() => void> = [];
  const appended: PromRegistry[] = [];
  const base = (name: string, help: string, labelNames: readonly string[]) => ({ name, help, labelNames: [...labelNames], registers: [registry] });

  return {
    counter(name, help, labelNames = []) {
      const metric = new PromCounter(base(name, help, labelNames));
      const labelled = pendingCounts(metric, labelNames);
      counted.push(labelled.flush);
      return {
        inc(labels) {
          if (labels === undefined) metric.inc();
          else labelled.inc(labels);
        },
      };
    },
    gauge(name, help, labelNames = []) {
      const metric = new PromGauge(base(name, help, labelNames));
      const admits = seriesGate(labelNames);
      return {
        set(value, labels) {
          if (labels === undefined) metric.set(value);
          else if (admits(labels)) metric.set(labels, value);
        },
      };
    },
    histogram(name, help, buckets, labelNames = []) {
      const metric = new PromHistogram({ ...base(name, help, labelNames), buckets: [...buckets] });
      const admits = seriesGate(labelNames);
      return {
        observe(value, labels) {
          if (labels === undefined) metric.observe(value);
          else if (admits(labels)) metric.observe(labels, value);
        },
      };
    },
    onCollect(collect) {
      collectors.push(collect);
    },
    append(other) {
      appended.push(other);
    },
    async render() {
      for (const flush of counted) flush();
      await Promise.all(collectors.map((collect) => collect()));
      const texts = await Promise.all([registry, ...appended].map((r) => r.metrics()));
      return texts.join('');
    },
    contentType: registry.contentType,
  };
}
