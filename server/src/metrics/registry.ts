// A small Prometheus registry: counters, gauges and histograms with labels, rendered in the text
// exposition format (version 0.0.4). Hand-written rather than a dependency because the relay needs
// four metric families and the format is a dozen lines; what matters is that label values are
// escaped and that the number of label combinations stays bounded (callers pass closed sets:
// route patterns, status codes, reasons, never paths or addresses).
export type Labels = Record<string, string>;

interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  render(out: string[]): void;
}

const needsEscape = /[\\\n"]/;
const escapeLabel = (v: string) => (needsEscape.test(v) ? v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"') : v);
/** `{a="1",b="2"}`, or '' without labels; counted on every request, so built without temporaries. */
function labelText(labels: Labels): string {
  let text = '';
  for (const k in labels) text += `${text === '' ? '{' : ','}${k}="${escapeLabel(labels[k]!)}"`;
  return text === '' ? '' : text + '}';
}
const num = (n: number) => (Number.isFinite(n) ? String(n) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN');

/** Label sets are keyed by their rendered text, which is also what the output needs. */
const MAX_SERIES_PER_FAMILY = 500;

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
  counter(name: string, help: string): Counter;
  gauge(name: string, help: string): Gauge;
  histogram(name: string, help: string, buckets: readonly number[]): Histogram;
  /** Runs before every render, to refresh gauges that mirror state held elsewhere. */
  onCollect(collect: () => void): void;
  render(): string;
}

export function createRegistry(): Registry {
  const families: Family[] = [];
  const collectors: Array<() => void> = [];

  function series<T>(make: () => T) {
    const map = new Map<string, T>();
    return {
      map,
      get(labels: Labels = {}): T | undefined {
        const key = labelText(labels);
        let s = map.get(key);
        if (!s) {
          // A bug that put unbounded values into labels must not grow memory without end.
          if (map.size >= MAX_SERIES_PER_FAMILY) return undefined;
          s = make();
          map.set(key, s);
        }
        return s;
      },
    };
  }

  return {
    counter(name, help) {
      const s = series(() => ({ v: 0 }));
      families.push({ name, help, type: 'counter', render: (out) => s.map.forEach((c, k) => out.push(`${name}${k} ${num(c.v)}`)) });
      return {
        inc(labels) {
          const c = s.get(labels);
          if (c) c.v++;
        },
      };
    },
    gauge(name, help) {
      const s = series(() => ({ v: 0 }));
      families.push({ name, help, type: 'gauge', render: (out) => s.map.forEach((c, k) => out.push(`${name}${k} ${num(c.v)}`)) });
      return {
        set(value, labels) {
          const c = s.get(labels);
          if (c) c.v = value;
        },
      };
    },
    histogram(name, help, buckets) {
      const bounds = [...buckets].sort((a, b) => a - b);
      const s = series(() => ({ counts: new Array<number>(bounds.length).fill(0), sum: 0, count: 0 }));
      families.push({
        name,
        help,
        type: 'histogram',
        render(out) {
          s.map.forEach((h, key) => {
            const inner = key === '' ? '' : key.slice(1, -1) + ',';
            let cumulative = 0;
            bounds.forEach((b, i) => {
              cumulative += h.counts[i]!;
              out.push(`${name}_bucket{${inner}le="${num(b)}"} ${cumulative}`);
            });
            out.push(`${name}_bucket{${inner}le="+Inf"} ${h.count}`);
            out.push(`${name}_sum${key} ${num(h.sum)}`);
            out.push(`${name}_count${key} ${h.count}`);
          });
        },
      });
      return {
        observe(value, labels) {
          const h = s.get(labels);
          if (!h) return;
          const i = bounds.findIndex((b) => value <= b);
          if (i >= 0) h.counts[i]!++;
          h.sum += value;
          h.count++;
        },
      };
    },
    onCollect(collect) {
      collectors.push(collect);
    },
    render() {
      for (const collect of collectors) collect();
      const out: string[] = [];
      for (const f of families) {
        out.push(`# HELP ${f.name} ${f.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${f.name} ${f.type}`);
        f.render(out);
      }
      return out.join('\n') + '\n';
    },
  };
}
