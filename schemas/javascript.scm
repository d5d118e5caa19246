; inherits: js-common, jsx
; JavaScript (.js .mjs .cjs .jsx): classes, declared functions and methods,
; ES imports and constructed bindings. Functions bound to names,
; re-exports, CommonJS, calls and default exports come from js-common.scm,
; JSX component calls from jsx.scm. ts-common.scm follows the same layout
; for the TypeScript grammar; keep them in step.

; ---- definitions: classes
(class_declaration
  name: (identifier) @cc.def.class.name
  body: (class_body) @cc.def.body) @cc.def.class.node

(class_declaration
  name: (identifier) @cc.def.class.name
  (class_heritage [(identifier) (member_expression)] @cc.def.base)) @cc.def.class.node

(class_declaration
  decorator: (decorator) @cc.def.decorator
  name: (identifier) @cc.def.class.name) @cc.def.class.node

; const C = class { ... }
(variable_declarator
  name: (identifier) @cc.def.class.name
  value: (class body: (class_body) @cc.def.body)) @cc.def.class.node

(variable_declarator
  name: (identifier) @cc.def.class.name
  value: (class (class_heritage [(identifier) (member_expression)] @cc.def.base))) @cc.def.class.node

; module.exports = class Command extends Base { ... }: named by its own name
(assignment_expression
  right: (class
    name: (identifier) @cc.def.class.name
    body: (class_body) @cc.def.body)) @cc.def.class.node

(assignment_expression
  right: (class
    name: (identifier) @cc.def.class.name
    (class_heritage [(identifier) (member_expression)] @cc.def.base))) @cc.def.class.node

; ---- definitions: functions and methods
(function_declaration
  name: (identifier) @cc.def.func.name
  body: (statement_block) @cc.def.body) @cc.def.func.node

(generator_function_declaration
  name: (identifier) @cc.def.func.name
  body: (statement_block) @cc.def.body) @cc.def.func.node

; class methods (the constructor is a method named "constructor") and
; object-literal methods
(method_definition
  name: [(property_identifier) (private_property_identifier)] @cc.def.func.name
  body: (statement_block) @cc.def.body) @cc.def.func.node

(method_definition
  decorator: (decorator) @cc.def.decorator
  name: [(property_identifier) (private_property_identifier)] @cc.def.func.name) @cc.def.func.node

; class fields holding functions: handle = () => {}
(field_definition
  property: [(property_identifier) (private_property_identifier)] @cc.def.func.name
  value: [
    (arrow_function body: (_) @cc.def.body)
    (function_expression body: (_) @cc.def.body)
    (generator_function body: (_) @cc.def.body)
  ]) @cc.def.func.node

; ---- imports: ES modules
; import d from './a'
(import_statement
  (import_clause (identifier) @cc.import.alias)
  source: (string) @cc.import.spec) @cc.import.node @cc.import.kind.default

; import {b as c, e} from './a'
(import_statement
  (import_clause
    (named_imports
      (import_specifier
        name: (identifier) @cc.import.name
        alias: (identifier)? @cc.import.alias)))
  source: (string) @cc.import.spec) @cc.import.node

; import * as ns from './a'
(import_statement
  (import_clause (namespace_import (identifier) @cc.import.alias))
  source: (string) @cc.import.spec) @cc.import.node

; import './side'
(import_statement
  .
  source: (string) @cc.import.spec) @cc.import.node

; ---- typed bindings: constructed and call-result variables and fields
; const x = new T()
(variable_declarator
  name: (identifier) @cc.bind.name
  value: (new_expression
    constructor: [(identifier) (member_expression)] @cc.bind.type))

; let windows = [new Subject()]: what the array holds
(variable_declarator
  name: (identifier) @cc.bind.elems
  value: (array . (new_expression constructor: [(identifier) (member_expression)] @cc.bind.type)))

; const x = f() / mod.f() (not require)
(variable_declarator
  name: (identifier) @cc.bind.name
  value: (call_expression
    function: [(identifier) (member_expression)] @cc.bind.call)
  (#not-eq? @cc.bind.call "require"))

; const x = await f()
(variable_declarator
  name: (identifier) @cc.bind.name
  value: (await_expression
    (call_expression
      function: [(identifier) (member_expression)] @cc.bind.call)))

; x = new T() / this.x = new T()
(assignment_expression
  left: [
    (identifier)
    (member_expression object: (this) property: (property_identifier))
  ] @cc.bind.name
  right: (new_expression
    constructor: [(identifier) (member_expression)] @cc.bind.type))

(assignment_expression
  left: [
    (identifier)
    (member_expression object: (this) property: (property_identifier))
  ] @cc.bind.name
  right: (call_expression
    function: [(identifier) (member_expression)] @cc.bind.call)
  (#not-eq? @cc.bind.call "require"))

; class field: repo = new Repo()
(field_definition
  property: (property_identifier) @cc.bind.name
  value: (new_expression
    constructor: [(identifier) (member_expression)] @cc.bind.type))

; JSDoc comments (/** ... @param {T} name ... */): the extractor types the
; parameters and result of the function that follows
(comment) @cc.doc

; parameters are variables (see the local names in js-common.scm)
(formal_parameters (identifier) @cc.local.name)
