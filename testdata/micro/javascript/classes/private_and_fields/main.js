// Pattern: private methods (`#m()`) and class fields holding arrow functions that call methods.
// Modelled on mobx-style reactive stores and React-ish components with bound handler fields.
class CounterStore {
  #count = 0;
  listeners = [];

  increment = (by = 1) => {
    this.#apply(by);
  };

  subscribe = (listener) => {
    this.listeners.push(listener);
  };

  #apply(delta) {
    this.#count = this.#clamp(this.#count + delta);
    this.#notify();
  }

  #clamp(value) {
    return Math.min(value, 10);
  }

  #notify() {
    for (const listener of this.listeners) {
      listener(this.#count);
    }
  }
}

function printCount(count) {
  console.log('count is', count);
}

const store = new CounterStore();
store.subscribe(printCount);
const { increment } = store;
increment();
increment(20);
