#!/usr/bin/env node
// The JavaScript/TypeScript oracle of ccd's accuracy harness
// (internal/oracle).
//
//   CCD_ORACLE_TYPESCRIPT=/path/to/node_modules/typescript node jsoracle.js ROOT > edges.json
//
// Builds one TypeScript program (the compiler API of typescript 5.9:
// allowJs, checkJs off, Node10 module resolution) over every .js .cjs .mjs
// .jsx .ts .tsx .mts .cts file under ROOT (declaration files and
// node_modules excluded), walks every CallExpression and NewExpression
// and resolves the callee with the checker: the resolved signature's
// declaration, else the symbol of the callee's name (aliases followed).
// It keeps the declarations that are named functions, methods,
// constructors and classes in ROOT's files. ccd's parser plays no part.
// The call sites it cannot resolve to any declaration (an untyped
// receiver, a parameter or property of function type) are listed as
// "unresolved" (file, line, callee name), so that the harness can tell an
// edge the oracle contradicts from one it cannot check.
//
// Conventions, the ones ccd's export uses: a function expression or arrow
// function is named by what it is assigned to (a variable, a property, an
// `a.b = function` assignment); one passed as an argument or called in
// place is anonymous and named by its own line (ccd's fn@N nodes start
// there); an anonymous function passed to a callee outside ROOT, or one
// the checker cannot resolve, is a "callback" edge from that call (an
// extra kind: see internal/oracle/README.md). `new C()` goes to the
// constructor the class declares or inherits, else to the class. An
// overload signature is replaced by the implementation. Lines are 1-based;
// an edge's line is where the call expression starts, alt the line of the
// callee's name when it differs (chains spanning lines).
'use strict';

const fs = require('fs');
const path = require('path');
const ts = require(process.env.CCD_ORACLE_TYPESCRIPT || 'typescript');

const exts = ['.js', '.cjs', '.mjs', '.jsx', '.ts', '.tsx', '.mts', '.cts'];

function isDecl(f) {
  return /\.d\.(ts|mts|cts)$/.test(f) || /\.d\.[^.]+\.ts$/.test(f);
}

function walkDir(dir, out) {
  for (const ent of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (ent.name.startsWith('.') || ent.name === 'node_modules') continue;
    const p = path.join(dir, ent.name);
    if (ent.isDirectory()) walkDir(p, out);
    else if (ent.isFile() && exts.includes(path.extname(ent.name)) && !isDecl(ent.name)) out.push(p);
  }
  return out;
}

function main() {
  if (process.argv.length !== 3) {
    process.stderr.write('usage: jsoracle.js ROOT\n');
    process.exit(2);
  }
  const start = Date.now();
  const root = fs.realpathSync(process.argv[2]);
  const files = walkDir(root, []);
  const inRoot = new Set(files);
  const rel = (f) => path.relative(root, f).split(path.sep).join('/');

  const options = {
    allowJs: true,
    checkJs: false,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    allowSyntheticDefaultImports: true,
    resolveJsonModule: true,
    jsx: ts.JsxEmit.Preserve,
    skipLibCheck: true,
    types: [],
    maxNodeModuleJsDepth: 0,
    allowImportingTsExtensions: true,
  };
  const program = ts.createProgram(files, options);
  const checker = program.getTypeChecker();
  const counts = {};
  const count = (k) => (counts[k] = (counts[k] || 0) + 1);
  const errors = [];
  const edges = [];
  const unresolved = []; // call sites the checker could not resolve to any declaration
  const seen = new Set();

  const lineOf = (node) => {
    const sf = node.getSourceFile();
    return sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  };

  const propName = (n) => {
    if (!n) return '';
    if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n)) return n.text;
    if (ts.isPropertyAccessExpression(n)) return n.name.text;
    if (ts.isElementAccessExpression(n) && n.argumentExpression && ts.isStringLiteral(n.argumentExpression)) return n.argumentExpression.text;
    return '';
  };

  // implementation: an overload signature's implementation, if any.
  const implementation = (decl) => {
    if (decl.body || !decl.name) return decl;
    const sym = checker.getSymbolAtLocation(decl.name);
    const impl = sym && (sym.declarations || []).find((d) => d.kind === decl.kind && d.body);
    return impl || decl;
  };

  // named: a function-valued expression's name and the node whose start
  // is its definition line; null when it is anonymous.
  const named = (fn, depth) => {
    const p = fn.parent;
    if (!p) return null;
    if (ts.isParenthesizedExpression(p)) return named(p, depth);
    if (ts.isVariableDeclaration(p) && p.initializer === fn && ts.isIdentifier(p.name)) return { name: p.name.text, at: p, fn };
    if (ts.isPropertyAssignment(p) && p.initializer === fn) return { name: propName(p.name), at: p, fn };
    if (ts.isPropertyDeclaration(p) && p.initializer === fn) return { name: propName(p.name), at: p, fn };
    if (ts.isBinaryExpression(p) && p.right === fn && p.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const n = propName(p.left);
      // a = b = function: the outermost assignment starts the line
      let at = p;
      while (at.parent && ts.isBinaryExpression(at.parent) && at.parent.right === at) at = at.parent;
      if (n === 'exports' && ts.isPropertyAccessExpression(p.left)) {
        // module.exports = function name() {}
        if (fn.name) return { name: fn.name.text, at, fn };
        return null;
      }
      if (n) return { name: n, at, fn };
    }
    if (ts.isExportAssignment(p) && fn.name) return { name: fn.name.text, at: p, fn };
    if ((ts.isFunctionExpression(fn) || ts.isClassExpression(fn)) && fn.name && depth === 0) return null; // an argument named for recursion
    return null;
  };

  // normalize: a declaration to {file, line, name}, or a reason string.
  const normalize = (decl, depth) => {
    if (!decl || depth > 6) return 'unknown';
    const sf = decl.getSourceFile();
    if (!inRoot.has(sf.fileName)) return 'outside';
    switch (decl.kind) {
      case ts.SyntaxKind.FunctionDeclaration:
      case ts.SyntaxKind.MethodDeclaration:
      case ts.SyntaxKind.MethodSignature: {
        const d = implementation(decl);
        if (!d.name) return 'anonymous';
        return { file: rel(sf.fileName), line: lineOf(d), name: propName(d.name) };
      }
      case ts.SyntaxKind.Constructor: {
        const d = implementation(decl);
        return { file: rel(sf.fileName), line: lineOf(d), name: 'constructor' };
      }
      case ts.SyntaxKind.ClassDeclaration:
        if (!decl.name) return 'anonymous';
        return { file: rel(sf.fileName), line: lineOf(decl), name: decl.name.text };
      case ts.SyntaxKind.FunctionExpression:
      case ts.SyntaxKind.ArrowFunction:
      case ts.SyntaxKind.ClassExpression: {
        const n = named(decl, depth);
        // An anonymous function (an IIFE, a returned closure) is named
        // by its own line, where ccd's fn@N node starts.
        if (!n || !n.name) return { file: rel(sf.fileName), line: lineOf(decl), name: 'anonymous' };
        return { file: rel(sf.fileName), line: lineOf(n.at), name: n.name };
      }
      case ts.SyntaxKind.VariableDeclaration:
      case ts.SyntaxKind.PropertyAssignment:
      case ts.SyntaxKind.PropertyDeclaration:
        if (decl.initializer) {
          let init = decl.initializer;
          while (ts.isParenthesizedExpression(init)) init = init.expression;
          if (ts.isFunctionExpression(init) || ts.isArrowFunction(init) || ts.isClassExpression(init)) return normalize(init, depth + 1);
          if (ts.isIdentifier(init) || ts.isPropertyAccessExpression(init)) return follow(init, depth + 1);
        }
        return 'not-a-function';
      case ts.SyntaxKind.ShorthandPropertyAssignment: {
        const sym = checker.getShorthandAssignmentValueSymbol(decl);
        return sym ? normalizeSymbol(sym, depth + 1) : 'unknown';
      }
      case ts.SyntaxKind.BinaryExpression: {
        let r = decl.right;
        while (r && ts.isParenthesizedExpression(r)) r = r.expression;
        if (r && (ts.isFunctionExpression(r) || ts.isArrowFunction(r) || ts.isClassExpression(r))) return normalize(r, depth + 1);
        if (r && (ts.isIdentifier(r) || ts.isPropertyAccessExpression(r))) return follow(r, depth + 1);
        return 'not-a-function';
      }
      case ts.SyntaxKind.PropertyAccessExpression:
      case ts.SyntaxKind.ElementAccessExpression:
        if (decl.parent && ts.isBinaryExpression(decl.parent) && decl.parent.left === decl) return normalize(decl.parent, depth + 1);
        return 'not-a-function';
      default:
        return 'not-a-function';
    }
  };

  const normalizeSymbol = (sym, depth) => {
    if (sym.flags & ts.SymbolFlags.Alias) {
      try {
        sym = checker.getAliasedSymbol(sym);
      } catch (e) {
        return 'unknown';
      }
    }
    const decls = sym.declarations || [];
    let why = 'unknown';
    for (const d of sym.valueDeclaration ? [sym.valueDeclaration, ...decls.filter((x) => x !== sym.valueDeclaration)] : decls) {
      const t = normalize(d, depth);
      if (typeof t === 'object') return t;
      why = t;
    }
    return why;
  };

  const follow = (expr, depth) => {
    const target = ts.isPropertyAccessExpression(expr) ? expr.name : expr;
    const sym = checker.getSymbolAtLocation(target);
    return sym ? normalizeSymbol(sym, depth) : 'unknown';
  };

  const resolve = (call) => {
    let sig;
    try {
      sig = checker.getResolvedSignature(call);
    } catch (e) {
      count('checker_error');
      if (errors.length < 20) errors.push(`${call.getSourceFile().fileName}:${lineOf(call)}: ${e.message}`);
    }
    let why = 'unknown';
    if (sig && sig.declaration && !ts.isJSDocSignature(sig.declaration)) {
      const t = normalize(sig.declaration, 0);
      if (typeof t === 'object') return [t, 'signature'];
      why = t;
    }
    let callee = call.expression;
    while (ts.isParenthesizedExpression(callee)) callee = callee.expression;
    if (callee.kind === ts.SyntaxKind.SuperKeyword || callee.kind === ts.SyntaxKind.ImportKeyword) return [why, ''];
    if (ts.isIdentifier(callee) || ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) {
      const target = ts.isPropertyAccessExpression(callee) ? callee.name : ts.isElementAccessExpression(callee) ? callee.argumentExpression : callee;
      let sym;
      try {
        sym = checker.getSymbolAtLocation(target);
      } catch (e) {
        sym = undefined;
      }
      if (sym) {
        const t = normalizeSymbol(sym, 0);
        if (typeof t === 'object') return [t, 'symbol'];
        if (why === 'unknown') why = t;
      }
    }
    return [why, ''];
  };

  const nameLine = (call) => {
    let callee = call.expression;
    while (callee && ts.isParenthesizedExpression(callee)) callee = callee.expression;
    if (!callee) return lineOf(call);
    if (ts.isPropertyAccessExpression(callee)) return lineOf(callee.name);
    if (ts.isElementAccessExpression(callee)) return lineOf(callee.argumentExpression);
    return lineOf(callee);
  };

  for (const f of files) {
    const sf = program.getSourceFile(f);
    if (!sf) {
      errors.push(`${rel(f)}: not in the program`);
      continue;
    }
    const visit = (node) => {
      if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.expression) {
        count('sites');
        const [t, how] = resolve(node);
        if (typeof t === 'object') {
          const line = lineOf(node);
          const e = { file: rel(f), line, callee_file: t.file, callee_line: t.line, callee_name: t.name, kind: how };
          const nl = nameLine(node);
          if (nl !== line) e.alt = [nl];
          const k = `${e.file}:${e.line}>${e.callee_file}:${e.callee_line}`;
          if (!seen.has(k)) {
            seen.add(k);
            edges.push(e);
          }
          count('resolved_in_root');
        } else {
          count(t === 'outside' ? 'resolved_outside' : t);
          if (t === 'outside' || t === 'unknown') {
            // Callbacks: an anonymous function handed to a callee outside
            // the package (or one the checker cannot resolve) is called
            // by it, from this call (ccd's convention; an extra kind: it
            // confirms ccd's edge, its absence is no miss).
            for (let a of node.arguments || []) {
              while (ts.isParenthesizedExpression(a)) a = a.expression;
              if (!ts.isFunctionExpression(a) && !ts.isArrowFunction(a)) continue;
              const e = { file: rel(f), line: lineOf(node), callee_file: rel(f), callee_line: lineOf(a), callee_name: 'anonymous', kind: 'callback' };
              const nl = nameLine(node);
              if (nl !== e.line) e.alt = [nl];
              const k = `${e.file}:${e.line}>${e.callee_file}:${e.callee_line}`;
              if (!seen.has(k)) {
                seen.add(k);
                edges.push(e);
                count('callbacks');
              }
            }
          }
          if (t === 'unknown' || t === 'not-a-function') {
            let callee = node.expression;
            while (ts.isParenthesizedExpression(callee)) callee = callee.expression;
            let name = '';
            if (ts.isIdentifier(callee)) name = callee.text;
            else if (ts.isPropertyAccessExpression(callee)) name = callee.name.text;
            else if (ts.isElementAccessExpression(callee)) name = propName(callee);
            if (name) {
              const u = { file: rel(f), line: lineOf(node), name };
              const nl = nameLine(node);
              if (nl !== u.line) u.alt = [nl];
              unresolved.push(u);
            }
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  edges.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.callee_file < b.callee_file ? -1 : a.callee_file > b.callee_file ? 1 : a.callee_line - b.callee_line)));
  counts.millis = Date.now() - start;
  process.stdout.write(
    JSON.stringify({
      tool: `typescript ${ts.version} compiler API`,
      root,
      files: files.map(rel),
      edges,
      unresolved,
      counts,
      errors,
    }) + '\n'
  );
}

main();
