/**
 * Reads a scrape in the Prometheus text format (version 0.0.4) into samples, for the tests. Written
 * here rather than taken from a library: the format's sample lines are `name{label="value",...} value`,
 * and the one parser on npm worth its name (prom-client) only writes the format. The text is also
 * checked by `promtool check metrics` (Debian's prometheus package) where the tests need it.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  samples: Sample[];
  /** `# TYPE` of each metric family. */
  types: Map<string, string>;
  /** The one sample of `name` whose labels include `labels`; throws when none or several match. */
  value(name: string, labels?: Record<string, string>): number;
  /** Every sample of `name` whose labels include `labels`. */
  find(name: string, labels?: Record<string, string>): Sample[];
}

const samplePattern = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/gy;

export function parsePrometheusText(text: string): Scrape {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type) types.set(type[1]!, type[2]!);
      continue;
    }
    const match = samplePattern.exec(line);
    if (!match) throw new Error(`line ${index + 1} is not a sample: ${line}`);
    const labels: Record<string, string> = {};
    const body = match[2] ?? '';
    labelPattern.lastIndex = 0;
    let read = 0;
    for (let label = labelPattern.exec(body); label; label = labelPattern.exec(body)) {
      labels[label[1]!] = label[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
      read = labelPattern.lastIndex;
    }
    if (read !== body.length) throw new Error(`line ${index + 1} has malformed labels: ${line}`);
    // Prometheus reads the value with Go's ParseFloat: NaN and Inf in any case (prom-client writes `Nan`).
    const written = match[3]!.toLowerCase();
    const value = written === 'nan' ? NaN : written === '+inf' || written === 'inf' ? Infinity : written === '-inf' ? -Infinity : Number(written);
    if (Number.isNaN(value) && written !== 'nan') throw new Error(`line ${index + 1} has no number: ${line}`);
    samples.push({ name: match[1]!, labels, value });
  }
  const find = (name: string, labels: Record<string, string> = {}) =>
    samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  return {
    samples,
    types,
    find,
    value(name, labels = {}) {
      const found = find(name, labels);
      if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}: ${JSON.stringify(found)}`);
      return found[0]!.value;
    },
  };
}
