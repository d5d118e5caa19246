// Pattern: block-scoped `let`/`const` bindings shadowing outer function bindings of the same name.
// Modelled on formatter code in chalk/pretty-format that rebinds `format` inside a branch.
const format = (value) => `<${value}>`;
let render = (value) => `render(${format(value)})`;

function renderRow(values, useUpper) {
  const out = [];
  for (const value of values) {
    if (useUpper) {
      const format = (v) => String(v).toUpperCase();
      out.push(format(value));
    } else {
      out.push(format(value));
    }
  }
  {
    let render = (row) => `[${row.join(', ')}]`;
    return render(out);
  }
}

console.log(renderRow(['a', 'b'], true));
console.log(renderRow(['c'], false));
console.log(render('d'));
