; Shared by javascript.scm and ts-common.scm, for the nodes the JavaScript
; and TypeScript grammars name alike: functions bound to names (variables,
; object properties, CommonJS exports, prototypes), re-exports, dynamic
; imports, CommonJS, call sites, and default exports.

; ---- definitions: functions bound to names
; const f = () => {} / const f = function () {} / const g = function* () {}
(variable_declarator
  name: (identifier) @cc.def.func.name
  value: [
    (arrow_function body: (_) @cc.def.body)
    (function_expression body: (_) @cc.def.body)
    (generator_function body: (_) @cc.def.body)
  ]) @cc.def.func.node

; object-literal properties holding functions: { f: function () {}, g: () => 1 },
; quoted keys too: { 'content-type': function () {} }
(pair
  key: [(property_identifier) (string)] @cc.def.func.name
  value: [
    (arrow_function body: (_) @cc.def.body)
    (function_expression body: (_) @cc.def.body)
  ]) @cc.def.func.node

; const f = (function () {}) / (() => 1): parenthesised
(variable_declarator
  name: (identifier) @cc.def.func.name
  value: (parenthesized_expression [
    (arrow_function body: (_) @cc.def.body)
    (function_expression body: (_) @cc.def.body)
  ])) @cc.def.func.node

; const api = { get() {} } qualifies its methods: api.get
(variable_declarator
  name: (identifier) @cc.scope.name
  value: (object)) @cc.scope.node

; CommonJS: exports.f = function () {} / module.exports.f = () => {}
(assignment_expression
  left: (member_expression
    object: (identifier) @_exports
    property: (property_identifier) @cc.def.func.name)
  right: [
    (arrow_function body: (_) @cc.def.body)
    (function_expression body: (_) @cc.def.body)
  ]
  (#eq? @_exports "exports")) @cc.def.func.node

(assignment_expression
  left: (member_expression
    object: (member_expression
      object: (identifier) @_module
      property: (property_identifier) @_exports)
    property: (property_identifier) @cc.def.func.name)
  right: [
    (arrow_function body: (_) @cc.def.body)
    (function_expression body: (_) @cc.def.body)
  ]
  (#eq? @_module "module")
  (#eq? @_exports "exports")) @cc.def.func.node

; a constructor function's base given by a statement, as pre-class code
; inherits (Node's util.inherits, the inherits package, express 3 and
; request): util.inherits(Request, Emitter), inherits(Request, Emitter)
(call_expression
  function: [
    (identifier) @_inherits
    (member_expression property: (property_identifier) @_inherits)
  ]
  arguments: (arguments
    .
    (identifier) @cc.base.of
    .
    [(identifier) (member_expression)] @cc.base.name .)
  (#eq? @_inherits "inherits"))

; Request.prototype = Object.create(Emitter.prototype)
(assignment_expression
  left: (member_expression
    object: (identifier) @cc.base.of
    property: (property_identifier) @_proto)
  right: (call_expression
    function: (member_expression
      object: (identifier) @_object
      property: (property_identifier) @_create)
    arguments: (arguments
      .
      (member_expression
        object: [(identifier) (member_expression)] @cc.base.name
        property: (property_identifier) @_proto2)))
  (#eq? @_proto "prototype")
  (#eq? @_object "Object")
  (#eq? @_create "create")
  (#eq? @_proto2 "prototype"))

; Object.setPrototypeOf(Request.prototype, Emitter.prototype)
(call_expression
  function: (member_expression
    object: (identifier) @_object
    property: (property_identifier) @_setproto)
  arguments: (arguments
    .
    (member_expression
      object: (identifier) @cc.base.of
      property: (property_identifier) @_proto)
    .
    (member_expression
      object: [(identifier) (member_expression)] @cc.base.name
      property: (property_identifier) @_proto2))
  (#eq? @_object "Object")
  (#eq? @_setproto "setPrototypeOf")
  (#eq? @_proto "prototype")
  (#eq? @_proto2 "prototype"))

; Foo.prototype.bar = function () {} (the name is split into owner Foo and bar)
(assignment_expression
  left: (member_expression
    object: (member_expression
      object: (identifier)
      property: (property_identifier) @_proto)
    property: (property_identifier)) @cc.def.func.name
  right: [
    (arrow_function body: (_) @cc.def.body)
    (function_expression body: (_) @cc.def.body)
  ]
  (#eq? @_proto "prototype")) @cc.def.func.node

; app.use = function use() {} (express's application.js): a function held by
; a property of an object, named owner.property like a prototype method
; (`this` inside it is the object); exports.f and module.exports.f are
; module members, above
(assignment_expression
  left: (member_expression
    object: (identifier) @_obj
    property: (property_identifier)) @cc.def.func.name
  right: [
    (arrow_function body: (_) @cc.def.body)
    (function_expression body: (_) @cc.def.body)
  ]
  (#not-any-of? @_obj "exports" "module")) @cc.def.func.node

; this.publish = function () {} in a constructor function or a class's
; constructor: a method of its instances, owned by that function (class)
(assignment_expression
  left: (member_expression
    object: (this)
    property: (property_identifier)) @cc.def.func.name
  right: [
    (arrow_function body: (_) @cc.def.body)
    (function_expression body: (_) @cc.def.body)
  ]) @cc.def.func.node

; Router.prototype = { add() {}, normalize: function () {} } attaches its
; functions to Router, as Router.prototype.add = ... does
((assignment_expression
   left: (member_expression
     object: (identifier) @cc.scope.name
     property: (property_identifier) @_proto)
   right: (object)) @cc.scope.node
 (#eq? @_proto "prototype"))

; ---- anonymous functions: callbacks, IIFEs, functions returned, stored or
; passed (named fn@LINE:COL); one a pattern above binds to a name keeps
; that name (the extractor drops the anonymous one with the same body)
[
  (arrow_function body: (_) @cc.def.body)
  (function_expression body: (_) @cc.def.body)
  (generator_function body: (_) @cc.def.body)
] @cc.def.anon

; (function () { ... })() and (() => ...)() call the function in place
(call_expression
  function: (parenthesized_expression [(function_expression) (arrow_function)] @cc.call.target)) @cc.call.node

; ---- what a function returns when it declares no result type: `return
; this` (chaining), `return new Option(...)` (factories), `return make()`,
; `return x`, from a return statement directly in its body (one in a nested
; block or callback is not the function's own answer for every path)
([
  (function_declaration body: (statement_block
    (return_statement [(this) (new_expression) (call_expression) (identifier) (member_expression) (arrow_function) (function_expression) (object)] @cc.def.returns)) @cc.def.returns.body)
  (function_expression body: (statement_block
    (return_statement [(this) (new_expression) (call_expression) (identifier) (member_expression) (arrow_function) (function_expression) (object)] @cc.def.returns)) @cc.def.returns.body)
  (method_definition body: (statement_block
    (return_statement [(this) (new_expression) (call_expression) (identifier) (member_expression) (arrow_function) (function_expression) (object)] @cc.def.returns)) @cc.def.returns.body)
  (arrow_function body: (statement_block
    (return_statement [(this) (new_expression) (call_expression) (identifier) (member_expression) (arrow_function) (function_expression) (object)] @cc.def.returns)) @cc.def.returns.body)
])
(arrow_function body: [(new_expression) (call_expression) (arrow_function) (function_expression)] @cc.def.returns @cc.def.returns.body)

; ---- values: const a = f / const mime = send.mime / this.cb = handler:
; the binding holds what the expression names (a function or class called
; through it later, or a module's member, maybe from outside the project)
(variable_declarator
  name: (identifier) @cc.bind.name
  value: [(identifier) (member_expression)] @cc.bind.value)

(assignment_expression
  left: [
    (identifier)
    (member_expression object: (this) property: (property_identifier))
  ] @cc.bind.name
  right: [(identifier) (member_expression) (arrow_function) (function_expression)] @cc.bind.value)

; EventEmitter.prototype.addListener = EventEmitter.prototype.on: a method
; by another name (the resolver reads it as an alias)
(assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) property: (property_identifier) @_proto)
    property: (property_identifier)) @cc.bind.name
  right: (member_expression
    object: (member_expression object: (identifier) property: (property_identifier) @_proto2)
    property: (property_identifier)) @cc.bind.value
  (#eq? @_proto "prototype")
  (#eq? @_proto2 "prototype"))

; const { _buffer, _timestampProvider } = this: each name holds that member
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @cc.bind.name)
  value: [(this) (identifier) (member_expression)] @cc.bind.from)

; this._outputConfiguration = { writeErr: (s) => ..., ... }: the field holds
; the object literal, whose methods are definitions of the function
(assignment_expression
  left: (member_expression object: (this) property: (property_identifier)) @cc.bind.name
  right: (object) @cc.bind.value)

; ---- value flow: a called value that is not a name (make()(x),
; handlers[i](x)); both arms of a conditional; what an array holds and a
; for-of loop takes; functions passed as arguments bind the callee's
; parameters by position
(call_expression function: [(call_expression) (subscript_expression)] @cc.call.value) @cc.call.node
(variable_declarator
  name: (identifier) @cc.bind.name
  value: (ternary_expression consequence: [(identifier) (member_expression) (subscript_expression) (arrow_function) (function_expression)] @cc.bind.value))
(variable_declarator
  name: (identifier) @cc.bind.name
  value: (ternary_expression alternative: [(identifier) (member_expression) (subscript_expression) (arrow_function) (function_expression)] @cc.bind.value))
; an element taken from a container: const fn = middleware[i] (koa-compose),
; then fn(ctx, next); kept when the container is a parameter of a
; function around it or a container the file fills (see addArgFlows)
(variable_declarator
  name: (identifier) @cc.bind.name
  value: (subscript_expression object: [(identifier) (member_expression object: (this))]) @cc.bind.value)
(assignment_expression
  left: (identifier) @cc.bind.name
  right: (subscript_expression object: [(identifier) (member_expression object: (this))]) @cc.bind.value)
(variable_declarator
  name: (identifier) @cc.bind.elems
  value: (array [(identifier) (member_expression) (arrow_function) (function_expression)] @cc.bind.value))
; what the objects of an array hold under each key: const plugins =
; [{ name: 'min', transform: minify }], then plugin.transform(out) for
; each plugin (bound as plugins[].transform)
(variable_declarator
  name: (identifier) @cc.bind.elems
  value: (array
    (object
      (pair
        key: (property_identifier) @cc.bind.prop
        value: [(identifier) (member_expression) (arrow_function) (function_expression)] @cc.bind.value))))
(variable_declarator
  name: (identifier) @cc.bind.elems
  value: (array (object (shorthand_property_identifier) @cc.bind.value @cc.bind.prop)))
; what an object literal holds: const reducers = { add: addTodo }, then
; reducers[action.type](state)
; (under its key too: reducers['add'] holds addTodo alone)
(variable_declarator
  name: (identifier) @cc.bind.elems
  value: (object (pair key: (_) @cc.bind.key value: [(identifier) (member_expression) (arrow_function) (function_expression)] @cc.bind.value)))
(variable_declarator
  name: (identifier) @cc.bind.elems
  value: (object (shorthand_property_identifier) @cc.bind.value @cc.bind.key))
; filled later: handlers.push(fn), this.listeners.push(fn), hooks.unshift(fn),
; routes.set(path, handler); a Map made of pairs: new Map([['k', fn]])
((call_expression
   function: (member_expression
     object: [(identifier) (member_expression object: (this) property: (property_identifier))] @cc.bind.elems
     property: (property_identifier) @_add)
   arguments: (arguments . [(identifier) (member_expression) (arrow_function) (function_expression)] @cc.bind.value))
 (#match? @_add "^(push|unshift|add)$"))
((call_expression
   function: (member_expression
     object: [(identifier) (member_expression object: (this) property: (property_identifier))] @cc.bind.elems
     property: (property_identifier) @_set)
   arguments: (arguments . (_) . [(identifier) (member_expression) (arrow_function) (function_expression)] @cc.bind.value))
 (#eq? @_set "set"))
((variable_declarator
   name: (identifier) @cc.bind.elems
   value: (new_expression
     constructor: (identifier) @_map
     arguments: (arguments . (array (array . (_) . [(identifier) (member_expression) (arrow_function) (function_expression)] @cc.bind.value)))))
 (#eq? @_map "Map"))
; both sides of a default: const keep = opts.filter || defaultFilter,
; handler = reducers[type] ?? commands.get(type); and of a conditional
; assigned later (transform = opts.redact ? redact : identity)
(variable_declarator
  name: (identifier) @cc.bind.name
  value: (binary_expression
    left: [(identifier) (member_expression) (subscript_expression) (call_expression) (arrow_function) (function_expression)] @cc.bind.value
    operator: ["||" "??"]))
(variable_declarator
  name: (identifier) @cc.bind.name
  value: (binary_expression
    operator: ["||" "??"]
    right: [(identifier) (member_expression) (subscript_expression) (call_expression) (arrow_function) (function_expression)] @cc.bind.value))
(assignment_expression
  left: (identifier) @cc.bind.name
  right: (ternary_expression consequence: [(identifier) (member_expression) (subscript_expression) (arrow_function) (function_expression)] @cc.bind.value))
(assignment_expression
  left: (identifier) @cc.bind.name
  right: (ternary_expression alternative: [(identifier) (member_expression) (subscript_expression) (arrow_function) (function_expression)] @cc.bind.value))
(for_in_statement
  left: (identifier) @cc.bind.name
  right: [(identifier) (member_expression)] @cc.bind.iter)
(call_expression
  function: (_) @cc.arg.callee
  arguments: (arguments [(identifier) (member_expression) (subscript_expression) (arrow_function) (function_expression)] @cc.arg.value) @cc.arg.list)
(new_expression
  constructor: (_) @cc.arg.callee
  arguments: (arguments [(identifier) (member_expression) (arrow_function) (function_expression)] @cc.arg.value) @cc.arg.list)
; the elements of an array passed: compose([logger, router]) binds the
; elements of compose's parameter
(call_expression
  function: (_) @cc.arg.callee
  arguments: (arguments (array [(identifier) (member_expression)] @cc.arg.elem)) @cc.arg.list)

; ---- function values: names in value positions (arguments, object and
; array elements, right-hand sides, returned values); the extractor keeps
; those that may name a function and the resolver makes reference edges
; (app.use(logger), {onClick: handleClick}, [validate, save])
; (arguments: see the argument patterns above, which make references too)
(pair value: [(identifier) (member_expression)] @cc.value.ref)
(object (shorthand_property_identifier) @cc.value.ref)
(array [(identifier) (member_expression)] @cc.value.ref)
(assignment_expression right: [(identifier) (member_expression)] @cc.value.ref)
(variable_declarator value: [(identifier) (member_expression)] @cc.value.ref)
(return_statement [(identifier) (member_expression)] @cc.value.ref)

; names bound as variables and parameters: a bare name among them in a
; value position is not taken for a function of that name (a declarator
; that defines a function is a definition, not one of these)
(variable_declarator name: (identifier) @cc.local.name)
(assignment_pattern left: (identifier) @cc.local.name)
(assignment_expression left: (identifier) @cc.local.name)

; export {a as b} from './x'
(export_statement
  (export_clause
    (export_specifier
      name: (identifier) @cc.import.name
      alias: (identifier)? @cc.import.alias))
  source: (string) @cc.import.spec) @cc.import.node @cc.import.kind.reexport

; export * from './x'
(export_statement
  "*" @cc.import.star
  source: (string) @cc.import.spec) @cc.import.node @cc.import.kind.reexport

; export * as ns from './x'
(export_statement
  (namespace_export (identifier) @cc.import.alias)
  source: (string) @cc.import.spec) @cc.import.node @cc.import.kind.reexport

; dynamic import('./x')
(call_expression
  function: (import)
  arguments: (arguments . (string) @cc.import.spec)) @cc.import.node

; const m = await import('./x') binds m to the module
(variable_declarator
  name: (identifier) @cc.import.alias
  value: (await_expression
    (call_expression
      function: (import)
      arguments: (arguments . (string) @cc.import.spec)))) @cc.import.node

; ---- imports: CommonJS
; const x = require('./a')
(variable_declarator
  name: (identifier) @cc.import.alias
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string) @cc.import.spec))
  (#eq? @_require "require")) @cc.import.node @cc.import.kind.require

; const {a, b: c} = require('./a')
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @cc.import.name)
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string) @cc.import.spec))
  (#eq? @_require "require")) @cc.import.node @cc.import.kind.require

(variable_declarator
  name: (object_pattern
    (pair_pattern
      key: (property_identifier) @cc.import.name
      value: (identifier) @cc.import.alias))
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string) @cc.import.spec))
  (#eq? @_require "require")) @cc.import.node @cc.import.kind.require

; const f = require('./a').f
(variable_declarator
  name: (identifier) @cc.import.alias
  value: (member_expression
    object: (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string) @cc.import.spec))
    property: (property_identifier) @cc.import.name)
  (#eq? @_require "require")) @cc.import.node @cc.import.kind.require

; require('./a').f(): the require call names the module where it stands
(call_expression
  function: (member_expression
    object: (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string) @cc.import.spec)) @cc.import.alias)
  (#eq? @_require "require")) @cc.import.node @cc.import.kind.require

; CommonJS re-exports, as package entry points write them (lodash's and
; express's index files): what another module exports, under a key of
; this module's exports.
; module.exports = { range: require('./array').range, pipe: require('./fp') }
; (the second: what ./fp's module.exports is)
(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports)
  right: (object
    (pair
      key: (property_identifier) @cc.import.alias
      value: [
        (member_expression
          object: (call_expression
            function: (identifier) @_require
            arguments: (arguments . (string) @cc.import.spec))
          property: (property_identifier) @cc.import.name) @cc.import.kind.reexport
        (call_expression
          function: (identifier) @_require
          arguments: (arguments . (string) @cc.import.spec)) @cc.import.kind.reexport_default
      ]) @cc.import.node)
  (#eq? @_module "module")
  (#eq? @_exports "exports")
  (#eq? @_require "require"))

; exports.range = require('./array').range / module.exports.range = ...
(assignment_expression
  left: (member_expression
    object: [(identifier) (member_expression)] @_exports
    property: (property_identifier) @cc.import.alias)
  right: (member_expression
    object: (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string) @cc.import.spec))
    property: (property_identifier) @cc.import.name)
  (#match? @_exports "^(module\\.)?exports$")
  (#eq? @_require "require")) @cc.import.node @cc.import.kind.reexport

; exports.query = require('./query') / module.exports.query = require(...)
(assignment_expression
  left: (member_expression
    object: [(identifier) (member_expression)] @_exports
    property: (property_identifier) @cc.import.alias)
  right: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string) @cc.import.spec))
  (#match? @_exports "^(module\\.)?exports$")
  (#eq? @_require "require")) @cc.import.node @cc.import.kind.reexport_default

; module.exports = { ...require('./math') }: all ./math exports
(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports)
  right: (object
    (spread_element
      (call_expression
        function: (identifier) @_require
        arguments: (arguments . (string) @cc.import.spec)) @cc.import.star) @cc.import.node @cc.import.kind.reexport)
  (#eq? @_module "module")
  (#eq? @_exports "exports")
  (#eq? @_require "require"))

; module.exports = { ...math } with const math = require('./math'): the
; extractor turns it into math's spec, re-exported whole
(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports)
  right: (object
    (spread_element (identifier) @cc.import.spec) @cc.import.node @cc.import.kind.spread)
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

; Object.assign(module.exports, require('./a')) / Object.assign(exports, ...)
(call_expression
  function: (member_expression
    object: (identifier) @_object
    property: (property_identifier) @_assign)
  arguments: (arguments
    .
    [
      (identifier) @_exports
      (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
    ]
    (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string) @cc.import.spec)) @cc.import.star)
  (#eq? @_object "Object")
  (#eq? @_assign "assign")
  (#eq? @_exports "exports")
  (#eq? @_require "require")) @cc.import.node @cc.import.kind.reexport

; require('./side')
(expression_statement
  (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string) @cc.import.spec))
  (#eq? @_require "require")) @cc.import.node @cc.import.kind.require

; ---- calls
(call_expression
  function: (identifier) @cc.call.target) @cc.call.node

; this.f(), obj.a.b(), a?.b(), this.#priv()
(call_expression
  function: (member_expression
    object: (_) @cc.call.receiver
    property: [(property_identifier) (private_property_identifier)] @cc.call.target)) @cc.call.node

; super(...) in a constructor
(call_expression
  function: (super) @cc.call.target) @cc.call.node

(new_expression
  constructor: (identifier) @cc.call.target) @cc.call.new

(new_expression
  constructor: (member_expression
    object: (_) @cc.call.receiver
    property: (property_identifier) @cc.call.target)) @cc.call.new

; a bare decorator is a call: @dec, @Input (decorators with arguments are call_expressions)
(decorator (identifier) @cc.call.target) @cc.call.node

(decorator
  (member_expression
    object: (_) @cc.call.receiver
    property: (property_identifier) @cc.call.target)) @cc.call.node

; ---- default exports: export default f / class C / x; module.exports = X
(export_statement
  "default"
  declaration: [
    (function_declaration name: (identifier) @cc.export.default)
    (class_declaration name: (_) @cc.export.default)
  ])
(export_statement "default" value: (identifier) @cc.export.default)
(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports)
  right: (identifier) @cc.export.default
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
; module.exports = function createLogger () {} / class Command {}: the
; function or class keeps its own name and is the default export
(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports)
  right: [
    (function_expression name: (identifier) @cc.export.default)
    (class name: (_) @cc.export.default)
  ]
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports)
  right: (function_expression
    name: (identifier) @cc.def.func.name
    body: (_) @cc.def.body)
  (#eq? @_module "module")
  (#eq? @_exports "exports")) @cc.def.func.node
