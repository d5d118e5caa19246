#!/usr/bin/env node
// The runtime oracle for JavaScript programs of ccd's micro-benchmark
// (internal/oracle, `just micro`).
//
//   CCD_ORACLE_TYPESCRIPT=/path/to/node_modules/typescript node jstrace.js ROOT > edges.json
//
// Runs ROOT/main.js (CommonJS) and records every call whose caller and
// callee are both code in a file under ROOT. Each file under ROOT is
// instrumented as it is required: at the start of every function body
// (declarations, expressions, arrows, methods, accessors, constructors;
// not static blocks, which no code calls) a call to a recorder is
// inserted on the same line, so
// lines stay where they were. The recorder reads V8's structured stack:
// the frame above the function is the call site. What ran is the truth;
// the TypeScript compiler only parses (to find functions and call
// expressions); ccd's parser plays no part.
//
// Conventions, the ones ccd's export and the static oracles use:
// - `new C()` goes to the constructor C declares or inherits from a class
//   under ROOT, else to the class itself (a class without one gets a
//   field initializer that reports the instantiation).
// - Functions are named by their name, else by what they are assigned to
//   (variable, property); an anonymous one by its line (ccd's fn@N).
// - An edge's line is the line its call expression starts on; alt holds
//   the line of the callee's name. Kinds: "call" (a call expression that
//   names the callee), "value" (a call expression through another name:
//   `const a = f; a()`, `handlers[k]()`, `fn.call(x)`), "implicit" (no
//   call expression: a getter, an iterator, a tagged template),
//   "callback" (a function run by code outside ROOT, such as
//   Array.prototype.forEach or EventEmitter.emit, attributed to the
//   nearest call under ROOT on the stack, or, for one the event loop
//   runs (a timer, a promise reaction), to the call under ROOT that made
//   its async resource: setTimeout(f), p.then(f)). Calls attributed to
//   nothing are counted.
'use strict';

const fs = require('fs');
const path = require('path');
const Module = require('module');
const ts = require(process.env.CCD_ORACLE_TYPESCRIPT || 'typescript');

const root = fs.realpathSync(process.argv[2] || '.');
const funcs = []; // id -> {file, line, name}
const classes = []; // id -> {file, line, name, ctor}
const files = new Map(); // abs path -> {calls, shifts, defaults}
const edges = new Map();
const errors = [];
const counts = { calls: 0, unattributed: 0 };
const classIds = new WeakMap();
let busy = false;

function rel(file) {
  if (!file || file.startsWith('node:')) return null;
  if (file.startsWith('file://')) file = file.slice(7);
  if (!file.startsWith(root + path.sep)) return null;
  if (!/\.(c?js)$/.test(file)) return null;
  return path.relative(root, file);
}

function lineCol(sf, pos) {
  const lc = sf.getLineAndCharacterOfPosition(pos);
  return [lc.line + 1, lc.character + 1];
}

function nameOf(node) {
  if (node.name && (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name) || ts.isStringLiteral(node.name) || ts.isNumericLiteral(node.name))) {
    return node.name.text;
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isPropertyAssignment(p) && p.name && !ts.isComputedPropertyName(p.name)) return p.name.text;
  if (p && ts.isPropertyDeclaration(p) && p.name && !ts.isComputedPropertyName(p.name)) return p.name.text;
  if (p && ts.isBinaryExpression(p) && p.right === node) {
    const l = p.left;
    if (ts.isIdentifier(l)) return l.text;
    if (ts.isPropertyAccessExpression(l)) return l.name.text;
  }
  return '';
}

// instrument returns the instrumented text of a file under ROOT and
// records its functions, classes and call expressions.
function instrument(file, src) {
  const sf = ts.createSourceFile(file, src, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const relFile = rel(file);
  const ins = []; // {pos, text}
  const calls = new Map(); // "line:col" -> call info
  const inner = []; // calls with their ranges, for the fallback
  const defaults = new Set(); // "line:col" of classes' default constructors
  const key = (l, c) => l + ':' + c;

  function addCall(node, callee, nameNode) {
    const [sl] = lineCol(sf, node.getStart(sf));
    const info = { line: sl, nameLine: nameNode ? lineCol(sf, nameNode.getStart(sf))[0] : sl, name: nameNode ? nameNode.text : '', node };
    for (const p of [node.getStart(sf), callee && callee.getStart(sf), nameNode && nameNode.getStart(sf)]) {
      if (p === undefined || p === null) continue;
      const [l, c] = lineCol(sf, p);
      if (!calls.has(key(l, c))) calls.set(key(l, c), info);
    }
    if (node.arguments) {
      // V8 places some calls at their argument list: an IIFE's `(`.
      const open = src.lastIndexOf('(', node.arguments.pos);
      if (open >= 0) {
        const [l, c] = lineCol(sf, open);
        if (!calls.has(key(l, c))) calls.set(key(l, c), info);
      }
    }
    if (callee && ts.isElementAccessExpression(callee)) {
      const [l, c] = lineCol(sf, callee.argumentExpression.getStart(sf) - 1);
      if (!calls.has(key(l, c))) calls.set(key(l, c), info);
    }
    inner.push({ start: callee ? callee.getStart(sf) : node.getStart(sf), end: callee ? callee.getEnd() : node.getEnd(), info });
  }

  function calleeName(e) {
    while (ts.isParenthesizedExpression(e)) e = e.expression;
    if (ts.isIdentifier(e)) return e;
    if (ts.isPropertyAccessExpression(e)) return e.name;
    if (e.kind === ts.SyntaxKind.SuperKeyword) return null;
    return null;
  }

  function visit(node) {
    if (ts.isCallExpression(node)) addCall(node, node.expression, calleeName(node.expression));
    else if (ts.isNewExpression(node)) addCall(node, node.expression, calleeName(node.expression));
    else if (ts.isTaggedTemplateExpression(node)) addCall(node, node.tag, calleeName(node.tag));

    const isFn = ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node);
    if (isFn && node.body) {
      const id = funcs.length;
      const [line] = lineCol(sf, node.getStart(sf));
      funcs.push({ file: relFile, line, name: nameOf(node) });
      if (ts.isBlock(node.body)) {
        ins.push({ pos: node.body.getStart(sf) + 1, text: `__ccdT(${id});` });
      } else {
        ins.push({ pos: node.body.getStart(sf), text: `(__ccdT(${id}),` });
        ins.push({ pos: node.body.getEnd(), text: ')' });
      }
    }
    if ((ts.isClassDeclaration(node) || ts.isClassExpression(node))) {
      const id = classes.length;
      const [line, col] = lineCol(sf, node.getStart(sf));
      const ctor = node.members.some((m) => ts.isConstructorDeclaration(m) && m.body);
      classes.push({ file: relFile, line, name: node.name ? node.name.text : nameOf(node), ctor });
      if (!ctor) defaults.add(key(line, col));
      const open = src.indexOf('{', node.members.pos - 1);
      let text = `static{__ccdC(this,${id})}`;
      if (!ctor) text += `[__ccdK]=__ccdN(this,${id});`;
      ins.push({ pos: open + 1, text });
    }
    ts.forEachChild(node, visit);
  }
  visit(sf);

  ins.sort((a, b) => a.pos - b.pos);
  let out = '';
  let last = 0;
  const shifts = new Map(); // line -> [{col (instrumented, 1-based), len}]
  let added = 0;
  let curLine = -1;
  for (const i of ins) {
    out += src.slice(last, i.pos) + i.text;
    last = i.pos;
    const [l, c] = lineCol(sf, i.pos);
    if (l !== curLine) {
      curLine = l;
      added = 0;
    }
    if (!shifts.has(l)) shifts.set(l, []);
    shifts.get(l).push({ col: c + added, len: i.text.length });
    added += i.text.length;
  }
  out += src.slice(last);
  files.set(file, { calls, inner, shifts, defaults, sf });
  return out;
}

// original maps an instrumented (line, col) back to the source's.
function original(fi, line, col) {
  const sh = fi.shifts.get(line);
  if (!sh) return col;
  let c = col;
  for (const s of sh) {
    if (col >= s.col + s.len) c -= s.len;
  }
  return c;
}

function stack() {
  const saved = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  Error.prepareStackTrace = (_, cs) => cs;
  Error.stackTraceLimit = 60;
  const o = {};
  Error.captureStackTrace(o, stack);
  const cs = o.stack;
  Error.prepareStackTrace = saved;
  Error.stackTraceLimit = limit;
  return cs.slice(1); // [0] the function that called the recorder, then its callers
}

function siteOf(frames, calleeName, start) {
  // frames[start] is the first frame above the callee.
  let kind = null;
  for (let i = start; i < frames.length; i++) {
    const f = frames[i];
    const file = f.getFileName();
    const r = rel(file);
    if (r === null) {
      kind = 'callback';
      continue;
    }
    const fi = files.get(file);
    if (!fi) return null;
    const line = f.getLineNumber();
    const col = original(fi, line, f.getColumnNumber());
    const k = line + ':' + col;
    if (f.isConstructor() && fi.defaults.has(k)) continue; // a default constructor
    let info = fi.calls.get(k);
    if (!info) {
      const starts = fi.sf.getLineStarts();
      const pos = (starts[line - 1] || 0) + col - 1;
      let best = null;
      for (const c of fi.inner) {
        if (c.start <= pos && pos < c.end && (!best || c.end - c.start < best.end - best.start)) best = c;
      }
      if (best) info = best.info;
    }
    if (!info) return { file: r, line, alt: [], kind: kind || 'implicit' };
    if (!kind) {
      // new C() and super() name the class, not the constructor: calls too.
      const named = info.name && info.name === calleeName;
      const ctor = ts.isNewExpression(info.node) || (info.node.expression && info.node.expression.kind === ts.SyntaxKind.SuperKeyword);
      kind = named || ctor ? 'call' : 'value';
    }
    const alt = [];
    if (info.nameLine !== info.line) alt.push(info.nameLine);
    if (line !== info.line && !alt.includes(line)) alt.push(line);
    return { file: r, line: info.line, alt, kind };
  }
  return null;
}

// Callbacks run by the event loop (timers, promise reactions, emitters
// fired later) have no frame under ROOT above them: they are attributed
// to the call under ROOT that created their async resource (setTimeout,
// .then), as kind "callback".
const asyncHooks = require('async_hooks');
const handedOver = new Map(); // async id -> site
asyncHooks.createHook({
  init(id) {
    if (busy) return;
    busy = true;
    try {
      const s = siteOf(stack(), '', 0);
      if (s) handedOver.set(id, { file: s.file, line: s.line, alt: s.alt, kind: 'callback' });
    } catch (e) {
      // an async resource made where no file under ROOT is on the stack
    } finally {
      busy = false;
    }
  },
  destroy(id) {
    handedOver.delete(id);
  },
}).enable();

function record(s, callee) {
  if (!s) s = handedOver.get(asyncHooks.executionAsyncId()) || handedOver.get(asyncHooks.triggerAsyncId()) || null;
  if (!s) {
    counts.unattributed++;
    return;
  }
  const k = [s.file, s.line, callee.file, callee.line, s.kind].join('\0');
  const e = edges.get(k);
  if (e) {
    for (const a of s.alt) if (!e.alt.includes(a)) e.alt.push(a);
    return;
  }
  edges.set(k, { file: s.file, line: s.line, alt: s.alt, callee_file: callee.file, callee_line: callee.line, callee_name: callee.name, kind: s.kind });
}

globalThis.__ccdT = function (id) {
  if (busy) return;
  busy = true;
  try {
    counts.calls++;
    const fn = funcs[id];
    record(siteOf(stack(), fn.name, 1), fn);
  } catch (e) {
    errors.push(`recording a call of ${funcs[id].name}: ${e.message}`);
  } finally {
    busy = false;
  }
};

globalThis.__ccdK = Symbol('ccd');

globalThis.__ccdC = function (cls, id) {
  classIds.set(cls, id);
};

// __ccdN runs as a field initializer of a class without a constructor:
// it reports `new C()` when C is the class made and no class between C
// and the base declares a constructor under ROOT.
globalThis.__ccdN = function (self, id) {
  if (busy) return undefined;
  const made = self.constructor;
  if (classIds.get(made) !== id) return undefined;
  for (let k = Object.getPrototypeOf(made); k && k !== Function.prototype; k = Object.getPrototypeOf(k)) {
    const kid = classIds.get(k);
    if (kid !== undefined && classes[kid].ctor) return undefined;
  }
  busy = true;
  try {
    counts.calls++;
    const frames = stack();
    // frames: the initializer, then constructors (default ones), then the site.
    record(siteOf(frames, classes[id].name, 1), classes[id]);
  } catch (e) {
    errors.push(`recording new ${classes[id].name}: ${e.message}`);
  } finally {
    busy = false;
  }
  return undefined;
};

for (const ext of ['.js', '.cjs']) {
  const orig = Module._extensions[ext] || Module._extensions['.js'];
  Module._extensions[ext] = function (module, filename) {
    if (rel(filename) === null) return orig(module, filename);
    const src = fs.readFileSync(filename, 'utf8');
    let out;
    try {
      out = instrument(filename, src);
    } catch (e) {
      errors.push(`${filename}: ${e.message}`);
      out = src;
    }
    module._compile(out, filename);
  };
}

function walk(dir, out) {
  for (const ent of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (ent.name.startsWith('.') || ent.name === 'node_modules') continue;
    const p = path.join(dir, ent.name);
    if (ent.isDirectory()) walk(p, out);
    else if (/\.(c?js)$/.test(ent.name)) out.push(path.relative(root, p));
  }
  return out;
}

function finish() {
  const list = [...edges.values()].sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.callee_file < b.callee_file ? -1 : a.callee_file > b.callee_file ? 1 : 0) || a.callee_line - b.callee_line || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  for (const e of list) e.alt.sort((a, b) => a - b);
  const res = { tool: `node ${process.version} runtime trace`, root, files: walk(root, []), edges: list, counts: { edges: list.length, calls: counts.calls, unattributed: counts.unattributed } };
  if (errors.length) res.errors = errors;
  fs.writeSync(1, JSON.stringify(res, null, 1) + '\n');
}

process.stdout.write = () => true; // the program's own output is not the result
console.log = () => {};
process.on('exit', (code) => {
  if (code) errors.push(`main.js exited with ${code}`);
  finish();
});
process.on('uncaughtException', (e) => {
  errors.push(`main.js threw: ${e && e.message}`);
});
process.chdir(root);
process.argv = [process.argv[0], path.join(root, 'main.js')];
require(path.join(root, 'main.js'));
