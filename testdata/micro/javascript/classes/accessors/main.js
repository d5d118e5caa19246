// Pattern: getters and setters: reading `obj.size` or assigning `obj.limit = n` runs code.
// Modelled on lru-cache / Map-like containers exposing `size` and `max` accessors.
class LRUCache {
  constructor(max) {
    this.entries = new Map();
    this._max = max;
  }

  get size() {
    return this.entries.size;
  }

  get max() {
    return this._max;
  }

  set max(value) {
    this._max = value;
    this.trim();
  }

  set(key, value) {
    this.entries.delete(key);
    this.entries.set(key, value);
    this.trim();
  }

  trim() {
    while (this.entries.size > this._max) {
      const oldest = this.entries.keys().next().value;
      this.entries.delete(oldest);
    }
  }
}

const cache = new LRUCache(3);
['a', 'b', 'c', 'd'].forEach((k, i) => cache.set(k, i));
console.log('size', cache.size, 'max', cache.max);
cache.max = 2;
console.log('size after shrink', cache.size);
