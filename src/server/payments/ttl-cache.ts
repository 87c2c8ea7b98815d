/**
 * The discovery's cache (payments/discovery.ts): a small TTL cache of promises, in a file of its own
 * because it is a general tool, not a rule of discovery. Hand-written rather than a library: it
 * caches the promise itself, so concurrent askers share one call to the service, and forgets a
 * failed one, in twenty lines.
 */
interface Cached<T> {
  value: Promise<T>;
  until: number;
}

/** A small TTL cache of promises: concurrent askers share one upstream call. */
export class TtlCache<T> {
  private readonly entries = new Map<string, Cached<T>>();
  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, load: () => Promise<T>): Promise<T> {
    const at = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > at) return hit.value;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    const value = load();
    this.entries.set(key, { value, until: at + this.ttlMs });
    // A failed call is not cached: the next asker tries again.
    value.catch(() => this.entries.delete(key));
    return value;
  }
}
