// Pattern: function values flowing through local variables, reassignment, `cond ? f : g` and `a || b`.
// Modelled on option defaulting in libraries like debug/commander (`const log = opts.log || console.log`).
'use strict';

const output = [];

function writeJson(record) {
  output.push(JSON.stringify(record));
}

function writePretty(record) {
  output.push(Object.keys(record).map((k) => k + '=' + record[k]).join(' '));
}

function defaultFilter(record) {
  return record.level !== 'trace';
}

function onlyErrors(record) {
  return record.level === 'error';
}

function emit(records, opts) {
  const write = opts.json ? writeJson : writePretty;
  const keep = opts.filter || defaultFilter;
  let transform = null;
  transform = (r) => r;
  if (opts.redact) {
    transform = function redact(r) {
      return { ...r, user: '***' };
    };
  }
  for (const r of records) {
    if (keep(r)) write(transform(r));
  }
}

const records = [
  { level: 'info', user: 'ann' },
  { level: 'trace', user: 'bob' },
  { level: 'error', user: 'cy' },
];
emit(records, { json: true });
emit(records, { json: false, filter: onlyErrors, redact: true });
console.log(output.join('\n'));
