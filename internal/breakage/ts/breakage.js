// TypeScript side of the breakage oracle (internal/breakage): the
// TypeScript compiler's API, the checker `tsc --noEmit` runs.
//
//   node breakage.js TYPESCRIPT_DIR ROOT
//
// Checks ROOT (its tsconfig.json) and prints one JSON line: the compiler's
// version, the baseline's error count, and the functions that can be
// mutated, each with its signature changes as byte edits that keep every
// line where it is and the calls the checker resolves to it. Then, for
// each line read from stdin ({"file", "pos"}: a function by where its
// name is, as listed), checks ROOT again as it is on disk and prints
// {"breaks": [...], "other": [...]}: the new errors, each given to the
// innermost call of that function that holds it.
"use strict";

const fs = require("fs");
const path = require("path");
const readline = require("readline");

const ts = require(path.join(process.argv[2], "typescript"));
const root = path.resolve(process.argv[3]);
const configPath = path.join(root, "tsconfig.json");

const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  },
});

// A host that parses a file again only when its text changed.
const cache = new Map();
const base = ts.createCompilerHost(parsed.options, true);
const host = {
  ...base,
  getSourceFile(fileName, lang, onError) {
    const text = ts.sys.readFile(fileName);
    if (text === undefined) return undefined;
    const c = cache.get(fileName);
    if (c && c.text === text) return c;
    const sf = ts.createSourceFile(fileName, text, lang, true);
    cache.set(fileName, sf);
    return sf;
  },
};

let program;
function build() {
  program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host, oldProgram: program });
  return program;
}

function rel(fileName) {
  return path.relative(root, fileName).split(path.sep).join("/");
}

function diagnostics(p) {
  const out = [];
  for (const d of ts.getPreEmitDiagnostics(p)) {
    if (d.category !== ts.DiagnosticCategory.Error) continue;
    const msg = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    const file = d.file ? d.file.fileName : "";
    const key = `${file}:${d.start}:${d.code}:${msg}`;
    out.push({ d, msg, key, file });
  }
  return out;
}

function line(sf, pos) {
  return sf.getLineAndCharacterOfPosition(pos).line + 1;
}

function byteOff(sf, pos) {
  return Buffer.byteLength(sf.text.slice(0, pos), "utf8");
}

// The function-like node a candidate is, and the nodes that declare it
// (what a call's symbol or signature resolves to).
function functionLike(node) {
  return ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) ||
    ts.isArrowFunction(node) || ts.isFunctionExpression(node);
}

// candidates of a source file: [{fn, nameNode, name, short, decls}]
function candidatesOf(sf) {
  const out = [];
  const visit = (node, scope) => {
    let next = scope;
    let cand = null;
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.body && node.name &&
        (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name))) {
      cand = { fn: node, nameNode: node.name, short: node.name.text, decls: [node] };
    } else if (ts.isConstructorDeclaration(node) && node.body) {
      const cls = node.parent;
      cand = { fn: node, nameNode: node.getFirstToken(sf), short: "constructor", decls: [node], cls };
    } else if ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isPropertyAssignment(node)) &&
        node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer)) &&
        ts.isIdentifier(node.name)) {
      cand = { fn: node.initializer, nameNode: node.name, short: node.name.text, decls: [node, node.initializer] };
    }
    if (cand) {
      cand.name = scope.concat([cand.short]).join(".");
      out.push(cand);
      next = scope.concat([cand.short]);
    } else if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && node.name) {
      next = scope.concat([node.name.text]);
    } else if (ts.isClassExpression(node) && ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)) {
      next = scope.concat([node.parent.name.text]);
    }
    ts.forEachChild(node, (c) => visit(c, next));
  };
  visit(sf, []);
  for (const c of out) {
    if (c.short === "constructor") {
      // A class's own constructor: `new C()` resolves to the class, and to
      // the constructor's overloads.
      c.decls.push(c.cls);
      for (const m of c.cls.members) if (ts.isConstructorDeclaration(m) && m !== c.fn) c.decls.push(m);
      c.name = (c.cls.name ? c.cls.name.text + "." : "") + "constructor";
    } else if (ts.isFunctionDeclaration(c.fn) || ts.isMethodDeclaration(c.fn)) {
      // overload signatures declare it too
      const sym = c.fn.name && checkerSymbol(c.fn.name);
      if (sym && sym.declarations) for (const d of sym.declarations) if (d !== c.fn) c.decls.push(d);
    }
  }
  return out;
}

let checker;
function checkerSymbol(node) {
  try {
    return checker.getSymbolAtLocation(node);
  } catch (e) {
    return undefined;
  }
}

function isCallLike(n) {
  return ts.isCallExpression(n) || ts.isNewExpression(n);
}

function calleeNameNode(call) {
  let e = call.expression;
  while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e)) e = e.expression;
  if (ts.isPropertyAccessExpression(e)) return e.name;
  return e;
}

// What a call resolves to: the declaration of its signature, and the
// declarations of its callee's symbol.
function resolveCall(call) {
  const out = [];
  try {
    const sig = checker.getResolvedSignature(call);
    if (sig && sig.declaration) out.push(sig.declaration);
  } catch (e) { /* a call the checker cannot resolve */ }
  let sym = call.expression.kind === ts.SyntaxKind.SuperKeyword ? undefined : checkerSymbol(calleeNameNode(call));
  if (sym && sym.flags & ts.SymbolFlags.Alias) {
    try { sym = checker.getAliasedSymbol(sym); } catch (e) { sym = undefined; }
  }
  if (sym && sym.declarations) out.push(...sym.declarations);
  if (sym && sym.valueDeclaration) out.push(sym.valueDeclaration);
  return out;
}

function declKey(d) {
  return d.getSourceFile().fileName + ":" + d.pos;
}

function site(call) {
  const sf = call.getSourceFile();
  const s = { file: rel(sf.fileName), line: line(sf, call.getStart(sf)) };
  const nl = line(sf, calleeNameNode(call).getStart(sf));
  if (nl !== s.line) s.name_line = nl;
  return s;
}

function sourceFiles(p) {
  return p.getSourceFiles().filter((sf) => sf.fileName.startsWith(root + path.sep) && !sf.fileName.includes("/node_modules/"));
}

// calls[declKey] = [call nodes]
function callIndex(p) {
  const idx = new Map();
  for (const sf of sourceFiles(p)) {
    const visit = (n) => {
      if (isCallLike(n)) {
        const seen = new Set();
        for (const d of resolveCall(n)) {
          const k = declKey(d);
          if (seen.has(k)) continue;
          seen.add(k);
          if (!idx.has(k)) idx.set(k, []);
          idx.get(k).push(n);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return idx;
}

function callsOf(idx, cand) {
  const out = new Set();
  for (const d of cand.decls) for (const c of idx.get(declKey(d)) || []) out.add(c);
  return [...out];
}

// ---- mutations

function mutationsOf(sf, cand) {
  const fn = cand.fn;
  const text = sf.text;
  const params = fn.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === "this"));
  const all = fn.parameters;
  const optional = (p) => !!(p.questionToken || p.initializer);
  const rest = (p) => !!p.dotDotDotToken;
  const out = [];
  // Arrow functions with one bare parameter have no parentheses.
  const open = fn.parameters.pos > 0 && text[fn.parameters.pos - 1] === "(" ? fn.parameters.pos - 1 :
    findOpenParen(sf, fn);
  const bare = open < 0;
  const E = (start, end, repl) => ({ start, end, repl });
  const add = (kind, edits) => {
    // Apply to check the result parses and keeps its lines.
    let t = text;
    for (const e of [...edits].sort((a, b) => b.start - a.start)) t = t.slice(0, e.start) + e.repl + t.slice(e.end);
    for (const e of edits) {
      const old = text.slice(e.start, e.end);
      if ((old.match(/\n/g) || []).length !== (e.repl.match(/\n/g) || []).length) return;
    }
    const nsf = ts.createSourceFile(sf.fileName, t, ts.ScriptTarget.Latest, true);
    if (nsf.parseDiagnostics && nsf.parseDiagnostics.length > 0) return;
    out.push({
      kind,
      edits: edits.map((e) => ({ file: rel(sf.fileName), off: byteOff(sf, e.start), old: text.slice(e.start, e.end), new: e.repl })),
    });
  };
  const last = all[all.length - 1];
  const after = (s) => (bare ? [E(last.getStart(sf), last.getStart(sf), "("), E(last.end, last.end, s + ")")] : [E(last.end, last.end, s)]);
  const first = (s) => [E(open + 1, open + 1, s)];

  // A new required parameter, when every parameter is required.
  if (params.every((p) => !optional(p) && !rest(p))) {
    add("add-required", all.length ? after(", ccdExtra: number") : first("ccdExtra: number"));
  }
  // A new optional parameter, unless there is a rest parameter.
  if (!params.some(rest)) {
    add("add-optional", all.length ? after(", ccdExtra?: number") : first("ccdExtra?: number"));
  }
  // The last parameter removed.
  if (params.length > 0 && last === params[params.length - 1]) {
    if (bare) {
      add("remove-last", [E(last.getStart(sf), last.end, "()")]);
    } else if (all.length >= 2) {
      const prev = all[all.length - 2];
      const old = text.slice(prev.end, last.end);
      add("remove-last", [E(prev.end, last.end, "\n".repeat((old.match(/\n/g) || []).length))]);
    } else {
      let end = last.end;
      let k = end;
      while (k < text.length && (text[k] === " " || text[k] === "\t")) k++;
      if (text[k] === ",") end = k + 1;
      const old = text.slice(last.getStart(sf), end);
      add("remove-last", [E(last.getStart(sf), end, "\n".repeat((old.match(/\n/g) || []).length))]);
    }
  }
  // Two adjacent parameters swapped (the last pair alike in optionality).
  for (let i = params.length - 2; i >= 0; i--) {
    const a = params[i], b = params[i + 1];
    if (rest(a) || rest(b) || optional(a) !== optional(b)) continue;
    const at = text.slice(a.getStart(sf), a.end), bt = text.slice(b.getStart(sf), b.end);
    if (at.includes("\n") || bt.includes("\n") || at === bt) continue;
    add("reorder", [E(a.getStart(sf), a.end, bt), E(b.getStart(sf), b.end, at)]);
    break;
  }
  return out;
}

function findOpenParen(sf, fn) {
  // The "(" of the parameter list: the first one after the name / start,
  // before the first parameter or the body.
  const start = fn.name ? fn.name.end : fn.getStart(sf);
  const stop = fn.parameters.length ? fn.parameters[0].getStart(sf) : (fn.body ? fn.body.getStart(sf) : fn.end);
  const i = sf.text.indexOf("(", start);
  if (i >= 0 && i < stop) {
    // generic type parameters can hold parentheses: take the one right
    // before the parameters' position
    const j = sf.text.lastIndexOf("(", fn.parameters.pos);
    return j >= start ? j : i;
  }
  return -1;
}

// ---- checking a mutant

function innermost(sf, start, end, pred) {
  let best = null;
  const visit = (n) => {
    if (n.getStart(sf) > start || n.end < end) return;
    if (pred(n)) best = n;
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return best;
}

function candidateAt(p, file, pos) {
  const sf = p.getSourceFile(path.join(root, file));
  if (!sf) return null;
  for (const c of candidatesOf(sf)) if (c.nameNode.getStart(sf) === pos) return c;
  return null;
}

function check(req, baseline) {
  const p = build();
  checker = p.getTypeChecker();
  const diags = diagnostics(p);
  const cand = candidateAt(p, req.file, req.pos);
  if (!cand) return { error: `no function at ${req.file}:${req.pos} after the mutation` };
  const keys = new Set(cand.decls.map(declKey));
  const targets = (n) => isCallLike(n) && resolveCall(n).some((d) => keys.has(declKey(d)));
  const breaks = new Map();
  const other = [];
  for (const x of diags) {
    if (baseline.has(x.key)) continue;
    const d = x.d;
    if (!d.file) {
      other.push({ file: "", line: 0, message: x.msg, where: "elsewhere" });
      continue;
    }
    const sf = d.file;
    const start = d.start, end = d.start + (d.length || 0);
    const call = innermost(sf, start, end, targets);
    if (call) {
      const k = declKey(call);
      if (!breaks.has(k)) breaks.set(k, { ...site(call), errors: [] });
      breaks.get(k).errors.push(x.msg);
      continue;
    }
    let where = "elsewhere";
    const fnNode = cand.decls[0] === cand.fn || ts.isConstructorDeclaration(cand.fn) ? cand.fn : cand.decls[0];
    if (sf === fnNode.getSourceFile() && fnNode.getStart(sf) <= start && start <= fnNode.end) where = "definition";
    else if (innermost(sf, start, end, (n) => ts.isIdentifier(n) && n.parent && !(isCallLike(n.parent) && calleeNameNode(n.parent) === n) &&
      (checkerSymbol(n)?.declarations || []).some((dd) => keys.has(declKey(dd))))) where = "value";
    other.push({ file: rel(sf.fileName), line: line(sf, start), message: x.msg, where });
  }
  const all = diags.filter((x) => x.d.file).map((x) => `${rel(x.file)}:${line(x.d.file, x.d.start)}:${x.d.code}`);
  return { breaks: [...breaks.values()], other, all };
}

// ---- main

function main() {
  const p = build();
  checker = p.getTypeChecker();
  const base = diagnostics(p);
  const baseline = new Set(base.map((x) => x.key));
  const idx = callIndex(p);
  const cands = [];
  for (const sf of sourceFiles(p)) {
    if (sf.isDeclarationFile) continue;
    for (const c of candidatesOf(sf)) {
      cands.push({
        file: rel(sf.fileName),
        line: line(sf, c.nameNode.getStart(sf)),
        pos: c.nameNode.getStart(sf),
        name: c.name,
        short: c.short,
        calls: callsOf(idx, c).map(site),
        overloads: c.decls.filter((d) => d !== c.fn && (ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d) || ts.isConstructorDeclaration(d)) && !d.body).length,
        muts: mutationsOf(sf, c),
      });
    }
  }
  process.stdout.write(JSON.stringify({ version: ts.version, baseline: base.length, candidates: cands }) + "\n");
  const rl = readline.createInterface({ input: process.stdin });
  rl.on("line", (l) => {
    if (!l.trim()) return;
    let res;
    try {
      res = check(JSON.parse(l), baseline);
    } catch (e) {
      res = { error: String(e && e.stack || e) };
    }
    process.stdout.write(JSON.stringify(res) + "\n");
  });
}

main();
