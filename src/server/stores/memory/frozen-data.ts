/**
 * What the memory store keeps of a record or a link: the caller's own object, deeply frozen in
 * place, and handed out as it is on every read. It used to keep a JSON copy and parse a new one on
 * every read; issue 43's profile found those copies (and their garbage) to be the largest cost of a
 * notification on this store. Frozen, a caller can no more change the stored state by mutating a
 * result or its argument than with a copy: in strict code (every module) the assignment throws a
 * TypeError, where with a copy it changed only the caller's copy. A caller builds a new object.
 *
 * Only objects not frozen yet are walked: a record's next revision is built by spreading the
 * previous one, so most of it (its deliveries, its payment, its log) is the previous revision's
 * objects, frozen and checked when that one was stored. (An object a caller froze itself is taken
 * as checked too: nothing in the companion freezes records but this file.)
 *
 * The persistent stores keep JSON text, so a record must be plain JSON data to read back the same
 * from all of them. The walk that freezes checks that too, instead of a JSON round trip: a value
 * JSON would change or drop (a Date, a Map, a class instance, a function, NaN, Infinity, a bigint,
 * a hole or `undefined` in an array) throws a TypeError naming its key, in the write that brought
 * it. An `undefined`-valued key is let through: JSON drops it, and a missing key reads the same
 * (`record.x === undefined`, `record.x ?? fallback`), which is how every reader of a record reads.
 */

/** Deeply freezes `value` in place and returns it; throws a TypeError on what is not plain JSON data. */
export function freezeJsonData<T extends object>(value: T, what: string): T {
  freezeObject(value, what);
  return value;
}

function freezeObject(value: object, path: string): void {
  if (Object.isFrozen(value)) return;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (item === undefined) throw notJson(`${path}[${index}]`, 'undefined (or a hole), which JSON turns into null');
      checkValue(item, `${path}[${index}]`);
    }
  } else {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) throw notJson(path, `a ${describe(value)}, not a plain object`);
    const fields = value as Record<string, unknown>;
    for (const key in fields) {
      const item = fields[key];
      if (item !== undefined) checkValue(item, `${path}.${key}`);
    }
  }
  Object.freeze(value);
}

function checkValue(item: unknown, path: string): void {
  switch (typeof item) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(item)) throw notJson(path, `${item}, which JSON turns into null`);
      return;
    case 'object':
      if (item !== null) freezeObject(item, path);
      return;
    default:
      throw notJson(path, `a ${typeof item}, which JSON drops or cannot write`);
  }
}

function describe(value: object): string {
  return (value as { constructor?: { name?: string } }).constructor?.name ?? 'object with a prototype';
}

function notJson(path: string, found: string): TypeError {
  return new TypeError(
    `The store keeps plain JSON data, but ${path} is ${found}: write a string, a finite number, a boolean, null, an array or a plain object there (a time as epoch milliseconds).`,
  );
}
