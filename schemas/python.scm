; Python: definitions, imports, call sites and typed bindings.

; ---- definitions
(class_definition
  name: (identifier) @cc.def.class.name
  body: (block) @cc.def.body) @cc.def.class.node

(class_definition
  name: (identifier) @cc.def.class.name
  superclasses: (argument_list [(identifier) (attribute)] @cc.def.base)) @cc.def.class.node

(function_definition
  name: (identifier) @cc.def.func.name
  body: (block) @cc.def.body) @cc.def.func.node

(function_definition
  name: (identifier) @cc.def.func.name
  return_type: (type) @cc.def.result) @cc.def.func.node

(decorated_definition
  (decorator) @cc.def.decorator
  definition: (function_definition name: (identifier) @cc.def.func.name) @cc.def.func.node)

(decorated_definition
  (decorator) @cc.def.decorator
  definition: (class_definition name: (identifier) @cc.def.class.name) @cc.def.class.node)

; ---- imports
(import_statement
  name: (dotted_name) @cc.import.spec) @cc.import.node

(import_statement
  name: (aliased_import
    name: (dotted_name) @cc.import.spec
    alias: (identifier) @cc.import.alias)) @cc.import.node

(import_from_statement
  module_name: (_) @cc.import.spec
  name: (dotted_name) @cc.import.name) @cc.import.node

(import_from_statement
  module_name: (_) @cc.import.spec
  name: (aliased_import
    name: (dotted_name) @cc.import.name
    alias: (identifier) @cc.import.alias)) @cc.import.node

(import_from_statement
  module_name: (_) @cc.import.spec
  (wildcard_import) @cc.import.star) @cc.import.node

; ---- calls (decorators are calls too)
(call function: (identifier) @cc.call.target) @cc.call.node

(call
  function: (attribute
    object: (_) @cc.call.receiver
    attribute: (identifier) @cc.call.target)) @cc.call.node

(decorator (identifier) @cc.call.target) @cc.call.node

(decorator
  (attribute
    object: (_) @cc.call.receiver
    attribute: (identifier) @cc.call.target)) @cc.call.node

; ---- typed bindings: annotated parameters, annotated and constructed variables
(typed_parameter (identifier) @cc.bind.name type: (type) @cc.bind.type)
(typed_default_parameter name: (identifier) @cc.bind.name type: (type) @cc.bind.type)
(assignment left: [(identifier) (attribute)] @cc.bind.name type: (type) @cc.bind.type)
; parser = typing.cast(IniParser, x): the type cast names
(assignment
  left: [(identifier) (attribute)] @cc.bind.name
  right: (call
    function: [(identifier) (attribute)] @_cast
    arguments: (argument_list . [(identifier) (attribute) (string)] @cc.bind.type))
  (#match? @_cast "^(typing\\.)?cast$"))
(assignment
  left: [(identifier) (attribute)] @cc.bind.name
  right: (call function: [(identifier) (attribute)] @cc.bind.call))
; a name or attribute assigned another one: `a = f`, `self.context_class =
; Context` (functions and classes used as values)
(assignment
  left: [(identifier) (attribute)] @cc.bind.name
  right: [(identifier) (attribute) (lambda)] @cc.bind.value)
; an element taken from a container: fn = middleware[i], then fn(ctx);
; kept when the container is a parameter of a function around it or a
; container the file fills (see addArgFlows)
(assignment
  left: (identifier) @cc.bind.name
  right: (subscript value: [(identifier) (attribute)]) @cc.bind.value)

; ---- value flow: a called value that is not a name (get_handler()(req),
; _dispatch[kind](x), Middleware()(environ)) is a call of its __call__
(call function: [(call) (subscript)] @cc.call.value) @cc.call.node

; ... and the rest of value flow through calls: each call with its callee and its
; arguments, and the few levels of nodes below them, which the extractor
; reads (core/parse/callflow.go; one pattern instead of nine, each of which
; started a query state for every call): a lambda called in place ((lambda: f())()); containers filled in place
; (hooks.append(f), self._callbacks.append(fn), steps.insert(0, f),
; steps.extend([f, g]), hooks.setdefault(event, []).append(fn)); builtins
; that call the function they are given (map(f, xs), filter(f, xs),
; sorted(xs, key=f), min/max(key=f), xs.sort(key=f)); and the functions
; passed as arguments, by position or keyword, which bind the callee's
; parameters
(call function: (_) @cc.flow.callee arguments: (_) @cc.flow.args) @cc.flow.call

; raise C: the exception class is constructed
(raise_statement . (identifier) @cc.call.target) @cc.call.node
(raise_statement
  . (attribute object: (_) @cc.call.receiver attribute: (identifier) @cc.call.target)) @cc.call.node

; what a function returns (a name, an attribute or a call, at the top of
; its body): the result of a call of it
(function_definition
  body: (block (return_statement [(identifier) (attribute) (call) (lambda) (expression_list)] @cc.def.returns)) @cc.def.returns.body)

; tuple unpacking pairs names with values: a, b = f, g
(assignment
  left: (pattern_list . (identifier) @cc.bind.name)
  right: (expression_list . [(identifier) (attribute) (lambda)] @cc.bind.value))
(assignment
  left: (pattern_list . (_) . (identifier) @cc.bind.name)
  right: (expression_list . (_) . [(identifier) (attribute) (lambda)] @cc.bind.value))
(assignment
  left: (pattern_list . (_) . (_) . (identifier) @cc.bind.name)
  right: (expression_list . (_) . (_) . [(identifier) (attribute) (lambda)] @cc.bind.value))

; functools.partial(f, ...) calls f: p = partial(f, 1)
((assignment
   left: (identifier) @cc.bind.name
   right: (call
     function: (attribute attribute: (identifier) @_partial)
     arguments: (argument_list . [(identifier) (attribute) (lambda)] @cc.bind.value)))
 (#eq? @_partial "partial"))
((assignment
   left: (identifier) @cc.bind.name
   right: (call
     function: (identifier) @_partial
     arguments: (argument_list . [(identifier) (attribute) (lambda)] @cc.bind.value)))
 (#eq? @_partial "partial"))

; both arms of a conditional: opener = gzip_open if gz else open
(assignment
  left: (identifier) @cc.bind.name
  right: (conditional_expression . [(identifier) (attribute) (lambda)] @cc.bind.value))
(assignment
  left: (identifier) @cc.bind.name
  right: (conditional_expression [(identifier) (attribute) (lambda)] @cc.bind.value .))

; a method looked up by name: visitor = getattr(self, "visit_" + kind,
; self.generic_visit) (ast.NodeVisitor, http.server, cmd.Cmd)
((assignment
   left: (identifier) @cc.bind.name
   right: (call function: (identifier) @_getattr) @cc.bind.value)
 (#eq? @_getattr "getattr"))

; ... and the method's name made first: method = "visit_" + name
; (literals ending in "_" only: prefixes of method names)
((assignment
   left: (identifier) @cc.bind.name
   right: (binary_operator left: (string) @_prefix) @cc.bind.value)
 (#match? @_prefix "^[a-zA-Z_]*[\"'][A-Za-z0-9_]*_[\"']$"))
((assignment
   left: (identifier) @cc.bind.name
   right: (string) @cc.bind.value @_prefix)
 (#match? @_prefix "^[fF][\"'][A-Za-z0-9_]*_[{]"))

; both sides of a default: handler = handlers.get(kind) or fallback
(assignment
  left: (identifier) @cc.bind.name
  right: (boolean_operator
    left: [(identifier) (attribute) (lambda) (subscript) (call)] @cc.bind.value
    operator: "or"))
(assignment
  left: (identifier) @cc.bind.name
  right: (boolean_operator
    operator: "or"
    right: [(identifier) (attribute) (lambda) (subscript) (call)] @cc.bind.value))

; containers: what a dict, list, tuple or set holds is bound as name[]
; (under their keys too: a literal index or key, CODEC[0], table["a"])
(assignment
  left: [(identifier) (attribute)] @cc.bind.elems
  right: (dictionary (pair key: (_) @cc.bind.key value: [(identifier) (attribute) (lambda)] @cc.bind.value)))
(assignment
  left: [(identifier) (attribute)] @cc.bind.elems
  right: (list [(identifier) (attribute) (lambda)] @cc.bind.value) @cc.bind.seq)
(assignment
  left: [(identifier) (attribute)] @cc.bind.elems
  right: (tuple [(identifier) (attribute) (lambda)] @cc.bind.value) @cc.bind.seq)
(assignment
  left: (identifier) @cc.bind.elems
  right: (set [(identifier) (attribute) (lambda)] @cc.bind.value))
; dict(upper=do_upper, title=do_title)
((assignment
   left: (identifier) @cc.bind.elems
   right: (call
     function: (identifier) @_dict
     arguments: (argument_list (keyword_argument value: [(identifier) (attribute) (lambda)] @cc.bind.value))))
 (#eq? @_dict "dict"))

; filled later: table[k] = f, steps += [f, g] (and hooks.append(f),
; steps.insert(0, f), steps.extend([f, g]): see cc.flow.call below)
(assignment
  left: (subscript value: [(identifier) (attribute)] @cc.bind.elems subscript: (_) @cc.bind.key)
  right: [(identifier) (attribute) (lambda)] @cc.bind.value)
(augmented_assignment
  left: [(identifier) (attribute)] @cc.bind.elems
  right: [(list [(identifier) (attribute) (lambda)] @cc.bind.value)
          (tuple [(identifier) (attribute) (lambda)] @cc.bind.value)])

; what a function returns, every return statement of it: a call of it
; may be any of them (if style == "bold": return render_bold)
(return_statement [(identifier) (attribute) (lambda)] @cc.bind.value) @cc.bind.return

; ... and the elements of a container it returns (return [f, g],
; return {"a": f}): make()["a"](x), handlers = make(); handlers[k](x)
(return_statement
  (list [(identifier) (attribute) (lambda)] @cc.bind.value) @cc.bind.seq) @cc.bind.retelems
(return_statement
  (parenthesized_expression (tuple [(identifier) (attribute) (lambda)] @cc.bind.value) @cc.bind.seq)) @cc.bind.retelems
(return_statement
  (dictionary (pair key: (_) @cc.bind.key value: [(identifier) (attribute) (lambda)] @cc.bind.value))) @cc.bind.retelems

; what a generator yields: the elements of what a call of it returns
(expression_statement (yield [(identifier) (attribute) (lambda)] @cc.bind.value) @cc.bind.yield)

; a loop variable takes the elements: for h in hooks, for f in (a, b),
; for f in gen()
; increment, reset, peek = make_counter(): each takes its item of the result
(assignment
  left: (pattern_list (identifier) @cc.bind.name) @cc.bind.pattern
  right: (call function: [(identifier) (attribute)]) @cc.bind.unpack)

(for_statement
  left: (identifier) @cc.bind.name
  right: [(identifier) (attribute) (call function: (identifier)) (subscript value: (identifier))] @cc.bind.iter)
; comprehensions and generator expressions take elements the same way:
; c.dump() for c in self.children
(for_in_clause
  left: (identifier) @cc.bind.name
  right: [(identifier) (attribute) (call function: (identifier)) (subscript value: (identifier))] @cc.bind.iter)
(for_statement
  left: (identifier) @cc.bind.name
  right: (list [(identifier) (attribute) (lambda)] @cc.bind.value))
(for_statement
  left: (identifier) @cc.bind.name
  right: (tuple [(identifier) (attribute) (lambda)] @cc.bind.value))

; a lambda bound to a name is a function of that name:
; currentframe = lambda: sys._getframe(1)
(assignment
  left: (identifier) @cc.def.func.name
  right: (lambda body: (_) @cc.def.body)) @cc.def.func.node

; ---- special methods no call names: `with x:` runs x.__enter__ and
; x.__exit__; `for v in x:` runs x.__iter__ and __next__ (on what
; __iter__ returns, most often x itself)
(with_item value: (as_pattern . [(call) (identifier) (attribute)] @cc.call.protocol.__enter__.__exit__))
(with_item value: [(call) (identifier) (attribute)] @cc.call.protocol.__enter__.__exit__)
(for_statement right: [(call) (identifier) (attribute)] @cc.call.protocol.__iter__.__next__)
; async with / async for run the asynchronous ones
(with_statement "async" (with_clause (with_item value: (as_pattern . [(call) (identifier) (attribute)] @cc.call.protocol.__aenter__.__aexit__))))
(with_statement "async" (with_clause (with_item value: [(call) (identifier) (attribute)] @cc.call.protocol.__aenter__.__aexit__)))
(for_statement "async" right: [(call) (identifier) (attribute)] @cc.call.protocol.__aiter__.__anext__)
; with X(...) as x: x is what X's __enter__ returns, most often the
; instance itself
(with_item value: (as_pattern . (call function: [(identifier) (attribute)] @cc.bind.call)
  alias: (as_pattern_target (identifier) @cc.bind.name)))


; ---- lambdas: anonymous functions (fn@N of their holder); the calls in
; their bodies are theirs, and the places that pass, store or call them
; name them
(lambda body: (_) @cc.def.body) @cc.def.anon

; a decorator gets the function it decorates
(decorated_definition
  (decorator [(identifier) (attribute)] @cc.arg.callee)
  definition: [(function_definition name: (identifier) @cc.arg.value)
               (class_definition name: (identifier) @cc.arg.value)])
; a decorator factory's result gets it: @retry(3), @app.route("/")
(decorated_definition
  (decorator (call function: [(identifier) (attribute)] @cc.arg.factory))
  definition: [(function_definition name: (identifier) @cc.arg.value)
               (class_definition name: (identifier) @cc.arg.value)])

; ---- function values: names in value positions (arguments, keyword
; values, right-hand sides, returned values, container elements); the
; extractor keeps those that may name a function and the resolver makes
; reference edges (sorted(xs, key=_safe_key), handlers = {'a': on_a})
; (arguments: see the argument patterns above, which make references too)
(assignment right: [(identifier) (attribute) (lambda)] @cc.value.ref)
(return_statement [(identifier) (attribute) (lambda)] @cc.value.ref)
(pair value: [(identifier) (attribute) (lambda)] @cc.value.ref)
(list [(identifier) (attribute) (lambda)] @cc.value.ref)
(tuple [(identifier) (attribute) (lambda)] @cc.value.ref)

; straight-line bindings: a statement of the module's or a function's
; body itself, under no branch or loop (a later one replaces it)
(module (expression_statement (assignment left: [(identifier) @cc.bind.straight (pattern_list (identifier) @cc.bind.straight)])))
(function_definition body: (block (expression_statement (assignment left: [(identifier) @cc.bind.straight (pattern_list (identifier) @cc.bind.straight)]))))

; names bound as variables and parameters: a bare name among them in a
; value position is not taken for a function of that name
(assignment left: (identifier) @cc.local.name)
(assignment left: [(pattern_list) (tuple_pattern) (list_pattern)] (identifier) @cc.local.name)
(augmented_assignment left: (identifier) @cc.local.name)
(for_statement left: (identifier) @cc.local.name)
(for_statement left: [(pattern_list) (tuple_pattern)] (identifier) @cc.local.name)
(for_in_clause left: (identifier) @cc.local.name)
(for_in_clause left: [(pattern_list) (tuple_pattern)] (identifier) @cc.local.name)
(as_pattern alias: (as_pattern_target (identifier) @cc.local.name))
(named_expression name: (identifier) @cc.local.name)
(parameters (identifier) @cc.local.name)
(default_parameter name: (identifier) @cc.local.name)
(typed_parameter (identifier) @cc.local.name)
(typed_default_parameter name: (identifier) @cc.local.name)
(lambda_parameters (identifier) @cc.local.name)
