// Pattern: class static initialization blocks that register arrow functions and call helpers.
// Modelled on registries like mime-type / codec tables built once at class definition time.
'use strict';

function normalizeType(type) {
  return type.trim().toLowerCase();
}

class Codecs {
  static table = new Map();

  static {
    const encodeJson = (value) => JSON.stringify(value);
    const encodeText = (value) => String(value);
    Codecs.register('Application/JSON ', encodeJson);
    Codecs.register(' text/plain', encodeText);
  }

  static register(type, encoder) {
    this.table.set(normalizeType(type), encoder);
  }

  static encode(type, value) {
    const encoder = this.table.get(normalizeType(type));
    return encoder(value);
  }
}

console.log(Codecs.encode('application/json', { ok: true }));
console.log(Codecs.encode('TEXT/PLAIN', 42));
