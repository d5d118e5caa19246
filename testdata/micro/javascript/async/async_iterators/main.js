// Pattern: async generators consumed with `for await`, and a class exposing [Symbol.asyncIterator].
// Modelled on paginated API clients (octokit.paginate) and readline/stream async iteration.
async function fetchPage(page) {
  return page < 3 ? { items: [`item${page}a`, `item${page}b`], next: page + 1 } : { items: [], next: null };
}

async function* paginate(startPage) {
  let page = startPage;
  while (page !== null) {
    const result = await fetchPage(page);
    yield* result.items;
    page = result.next;
  }
}

class LineReader {
  constructor(text) {
    this.lines = text.split('\n');
  }

  async *[Symbol.asyncIterator]() {
    for (const line of this.lines) {
      yield line.trim();
    }
  }
}

async function main() {
  const items = [];
  for await (const item of paginate(1)) {
    items.push(item);
  }
  console.log(items.join(','));
  for await (const line of new LineReader('  alpha\nbeta  ')) {
    console.log('line:', line);
  }
}

main();
