/**
 * One keyed collection of the emulated account. Reading is free; every change goes through `put`, `remove` or
 * `update`, and each of those tells the store it changed, so the state file is saved after the request without a
 * handler having to remember to say so. A record is changed in place only inside `update`.
 */
export class Collection<K, V> implements Iterable<[K, V]> {
  readonly #items = new Map<K, V>();
  readonly #changed: () => void;

  constructor(changed: () => void) {
    this.#changed = changed;
  }

  get size(): number {
    return this.#items.size;
  }

  get(key: K): V | undefined {
    return this.#items.get(key);
  }

  has(key: K): boolean {
    return this.#items.has(key);
  }

  values(): IterableIterator<V> {
    return this.#items.values();
  }

  keys(): IterableIterator<K> {
    return this.#items.keys();
  }

  entries(): IterableIterator<[K, V]> {
    return this.#items.entries();
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.#items.entries();
  }

  /** Adds the record, or replaces the one under the same key. */
  put(key: K, value: V): V {
    this.#items.set(key, value);
    this.#changed();
    return value;
  }

  remove(key: K): boolean {
    if (!this.#items.delete(key)) return false;
    this.#changed();
    return true;
  }

  /** Removes every record `test` picks; the number removed. */
  removeWhere(test: (value: V, key: K) => boolean): number {
    let n = 0;
    for (const [key, value] of this.#items) {
      if (!test(value, key)) continue;
      this.#items.delete(key);
      n++;
    }
    if (n > 0) this.#changed();
    return n;
  }

  /** Changes one record in place; `undefined` when there is none under `key`. */
  update<R>(key: K, change: (value: V) => R): R | undefined {
    const value = this.#items.get(key);
    if (value === undefined) return undefined;
    const result = change(value);
    this.#changed();
    return result;
  }

  /** Changes every record in place (e.g. dropping a deleted operator from every group). */
  updateEach(change: (value: V, key: K) => void): void {
    for (const [key, value] of this.#items) change(value, key);
    if (this.#items.size > 0) this.#changed();
  }
}
