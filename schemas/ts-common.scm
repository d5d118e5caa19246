; inherits: js-common
; The part of the TypeScript schema that typescript.scm and tsx.scm share
; (both start with `; inherits: ts-common`): definitions, ES imports and
; typed bindings. Functions bound to names, re-exports, CommonJS, calls and
; default exports come from js-common.scm. javascript.scm has the same
; layout for the JavaScript grammar; keep them in step.
;
; Type captures accept only types that name one type: T, ns.T, T<A>,
; string, and `T | undefined` / `T | null` (as T). Arrays, tuples, function
; and object types are left out because NormType would reduce `T[]` to T.
; Declared results unwrap Promise<T> to T, the type `await f()` yields.

; ---- definitions: classes, interfaces, enums, namespaces
(class_declaration
  name: (type_identifier) @cc.def.class.name
  body: (class_body) @cc.def.body) @cc.def.class.node

(abstract_class_declaration
  name: (type_identifier) @cc.def.class.name
  body: (class_body) @cc.def.body) @cc.def.class.node

; extends X / implements Y, Z
(class_declaration
  name: (type_identifier) @cc.def.class.name
  (class_heritage
    (extends_clause value: [(identifier) (member_expression)] @cc.def.base))) @cc.def.class.node

(abstract_class_declaration
  name: (type_identifier) @cc.def.class.name
  (class_heritage
    (extends_clause value: [(identifier) (member_expression)] @cc.def.base))) @cc.def.class.node

(class_declaration
  name: (type_identifier) @cc.def.class.name
  (class_heritage
    (implements_clause
      [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.base))) @cc.def.class.node

(abstract_class_declaration
  name: (type_identifier) @cc.def.class.name
  (class_heritage
    (implements_clause
      [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.base))) @cc.def.class.node

; @Component(...) class X — the decorator hangs on the class, or on the
; export statement when the class is exported
(class_declaration
  decorator: (decorator) @cc.def.decorator
  name: (type_identifier) @cc.def.class.name) @cc.def.class.node

(abstract_class_declaration
  decorator: (decorator) @cc.def.decorator
  name: (type_identifier) @cc.def.class.name) @cc.def.class.node

(export_statement
  decorator: (decorator) @cc.def.decorator
  declaration: [
    (class_declaration name: (type_identifier) @cc.def.class.name)
    (abstract_class_declaration name: (type_identifier) @cc.def.class.name)
  ] @cc.def.class.node)

; const C = class { ... }
(variable_declarator
  name: (identifier) @cc.def.class.name
  value: (class body: (class_body) @cc.def.body)) @cc.def.class.node

(variable_declarator
  name: (identifier) @cc.def.class.name
  value: (class
    (class_heritage
      (extends_clause value: [(identifier) (member_expression)] @cc.def.base)))) @cc.def.class.node

(interface_declaration
  name: (type_identifier) @cc.def.class.name
  body: (interface_body) @cc.def.body) @cc.def.class.node

(interface_declaration
  name: (type_identifier) @cc.def.class.name
  (extends_type_clause
    type: [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.base)) @cc.def.class.node

; type Props = { ... } is an interface by another name
(type_alias_declaration
  name: (type_identifier) @cc.def.class.name
  value: (object_type) @cc.def.body) @cc.def.class.node

; any other alias (unions, function types, mapped types) is a type people
; look up by name, as Go's `type F func()` is
(type_alias_declaration
  name: (type_identifier) @cc.def.class.name) @cc.def.class.node

; the types an alias names are its bases: a value of `type S = A | B` or
; `type S = A & B` has the methods of A or B (a receiver typed S finds
; them), `type S = A<T>` those of A
(type_alias_declaration
  name: (type_identifier) @cc.def.class.name
  value: [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.base) @cc.def.class.node

(type_alias_declaration
  name: (type_identifier) @cc.def.class.name
  value: [
    (union_type [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.base)
    (union_type (union_type [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.base))
    (union_type (union_type (union_type [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.base)))
    (union_type (union_type (union_type (union_type [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.base))))
    (intersection_type [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.base)
    (intersection_type (intersection_type [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.base))
  ]) @cc.def.class.node

(enum_declaration
  name: (identifier) @cc.def.class.name
  body: (enum_body) @cc.def.body) @cc.def.class.node

; namespace A.B { } / module M { } (not `declare module 'pkg'`)
(internal_module
  name: [(identifier) (nested_identifier)] @cc.def.class.name
  body: (statement_block) @cc.def.body) @cc.def.class.node

(module
  name: [(identifier) (nested_identifier)] @cc.def.class.name
  body: (statement_block) @cc.def.body) @cc.def.class.node

; ---- definitions: functions and methods
(function_declaration
  name: (identifier) @cc.def.func.name
  body: (statement_block) @cc.def.body) @cc.def.func.node

(generator_function_declaration
  name: (identifier) @cc.def.func.name
  body: (statement_block) @cc.def.body) @cc.def.func.node

; declare function f(): T; and the overload signatures before an
; implementation (function f(a: string): T;): definitions a person looks up.
; Calls bind to the implementation, the last definition of the name (see
; resolve.lastWins).
(function_signature
  name: (identifier) @cc.def.func.name) @cc.def.func.node

; class methods (the constructor is a method named "constructor") and
; object-literal methods. Overload signatures in a class body are
; method_signature nodes (below): calls bind to the implementation after them.
(method_definition
  name: [(property_identifier) (private_property_identifier)] @cc.def.func.name
  body: (statement_block) @cc.def.body) @cc.def.func.node

(class_body
  (decorator)+ @cc.def.decorator
  .
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @cc.def.func.name) @cc.def.func.node)

(abstract_method_signature
  name: [(property_identifier) (private_property_identifier)] @cc.def.func.name) @cc.def.func.node

; interface and type-literal methods; methods of `declare class`
(interface_body
  (method_signature
    name: (property_identifier) @cc.def.func.name) @cc.def.func.node)

(type_alias_declaration
  value: (object_type
    (method_signature
      name: (property_identifier) @cc.def.func.name) @cc.def.func.node))

(class_body
  (method_signature
    name: [(property_identifier) (private_property_identifier)] @cc.def.func.name) @cc.def.func.node)

; class fields holding functions: handle = () => {}
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @cc.def.func.name
  value: [
    (arrow_function body: (_) @cc.def.body)
    (function_expression body: (_) @cc.def.body)
    (generator_function body: (_) @cc.def.body)
  ]) @cc.def.func.node

; ---- declared result types, one pattern per definition form above (a
; result pattern also creates its definition, so each keeps its form's
; context). Branches: a plain type; T | undefined / T | null as T; a generic
; other than Promise; Promise<T> as T.

; function f(): T { }
(function_declaration
  name: (identifier) @cc.def.func.name
  return_type: (type_annotation [
    (type_identifier) @cc.def.result
    (nested_type_identifier) @cc.def.result
    (predefined_type) @cc.def.result
    (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
    (generic_type name: (_) @_generic) @cc.def.result
    (generic_type name: (_) @_promise type_arguments: (type_arguments . [
      (type_identifier) @cc.def.result
      (nested_type_identifier) @cc.def.result
      (generic_type) @cc.def.result
      (predefined_type) @cc.def.result
      (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
    ] .))
  ])
  (#not-eq? @_generic "Promise")
  (#eq? @_promise "Promise")) @cc.def.func.node

; m(): T { }
(method_definition
  name: [(property_identifier) (private_property_identifier)] @cc.def.func.name
  return_type: (type_annotation [
    (type_identifier) @cc.def.result
    (nested_type_identifier) @cc.def.result
    (predefined_type) @cc.def.result
    (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
    (generic_type name: (_) @_generic) @cc.def.result
    (generic_type name: (_) @_promise type_arguments: (type_arguments . [
      (type_identifier) @cc.def.result
      (nested_type_identifier) @cc.def.result
      (generic_type) @cc.def.result
      (predefined_type) @cc.def.result
      (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
    ] .))
  ])
  (#not-eq? @_generic "Promise")
  (#eq? @_promise "Promise")) @cc.def.func.node

; abstract m(): T;
(abstract_method_signature
  name: [(property_identifier) (private_property_identifier)] @cc.def.func.name
  return_type: (type_annotation [
    (type_identifier) @cc.def.result
    (nested_type_identifier) @cc.def.result
    (predefined_type) @cc.def.result
    (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
    (generic_type name: (_) @_generic) @cc.def.result
    (generic_type name: (_) @_promise type_arguments: (type_arguments . [
      (type_identifier) @cc.def.result
      (nested_type_identifier) @cc.def.result
      (generic_type) @cc.def.result
      (predefined_type) @cc.def.result
      (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
    ] .))
  ])
  (#not-eq? @_generic "Promise")
  (#eq? @_promise "Promise")) @cc.def.func.node

; interface I { m(): T }
(interface_body
  (method_signature
    name: (property_identifier) @cc.def.func.name
    return_type: (type_annotation [
      (type_identifier) @cc.def.result
      (nested_type_identifier) @cc.def.result
      (predefined_type) @cc.def.result
      (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
      (generic_type name: (_) @_generic) @cc.def.result
      (generic_type name: (_) @_promise type_arguments: (type_arguments . [
        (type_identifier) @cc.def.result
        (nested_type_identifier) @cc.def.result
        (generic_type) @cc.def.result
        (predefined_type) @cc.def.result
        (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
      ] .))
    ])) @cc.def.func.node
  (#not-eq? @_generic "Promise")
  (#eq? @_promise "Promise"))

; type X = { m(): T }
(type_alias_declaration
  value: (object_type
    (method_signature
      name: (property_identifier) @cc.def.func.name
      return_type: (type_annotation [
        (type_identifier) @cc.def.result
        (nested_type_identifier) @cc.def.result
        (predefined_type) @cc.def.result
        (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
        (generic_type name: (_) @_generic) @cc.def.result
        (generic_type name: (_) @_promise type_arguments: (type_arguments . [
          (type_identifier) @cc.def.result
          (nested_type_identifier) @cc.def.result
          (generic_type) @cc.def.result
          (predefined_type) @cc.def.result
          (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
        ] .))
      ])) @cc.def.func.node)
  (#not-eq? @_generic "Promise")
  (#eq? @_promise "Promise"))

; declare class X { m(): T }
(ambient_declaration
  (class_declaration
    body: (class_body
      (method_signature
        name: (property_identifier) @cc.def.func.name
        return_type: (type_annotation [
          (type_identifier) @cc.def.result
          (nested_type_identifier) @cc.def.result
          (predefined_type) @cc.def.result
          (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
          (generic_type name: (_) @_generic) @cc.def.result
          (generic_type name: (_) @_promise type_arguments: (type_arguments . [
            (type_identifier) @cc.def.result
            (nested_type_identifier) @cc.def.result
            (generic_type) @cc.def.result
            (predefined_type) @cc.def.result
            (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
          ] .))
        ])) @cc.def.func.node))
  (#not-eq? @_generic "Promise")
  (#eq? @_promise "Promise"))

; declare function f(): T;
(ambient_declaration
  (function_signature
    name: (identifier) @cc.def.func.name
    return_type: (type_annotation [
      (type_identifier) @cc.def.result
      (nested_type_identifier) @cc.def.result
      (predefined_type) @cc.def.result
      (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
      (generic_type name: (_) @_generic) @cc.def.result
      (generic_type name: (_) @_promise type_arguments: (type_arguments . [
        (type_identifier) @cc.def.result
        (nested_type_identifier) @cc.def.result
        (generic_type) @cc.def.result
        (predefined_type) @cc.def.result
        (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
      ] .))
    ])) @cc.def.func.node
  (#not-eq? @_generic "Promise")
  (#eq? @_promise "Promise"))

; const f = (): T => {} / function (): T {}
(variable_declarator
  name: (identifier) @cc.def.func.name
  value: (_
    return_type: (type_annotation [
      (type_identifier) @cc.def.result
      (nested_type_identifier) @cc.def.result
      (predefined_type) @cc.def.result
      (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
      (generic_type name: (_) @_generic) @cc.def.result
      (generic_type name: (_) @_promise type_arguments: (type_arguments . [
        (type_identifier) @cc.def.result
        (nested_type_identifier) @cc.def.result
        (generic_type) @cc.def.result
        (predefined_type) @cc.def.result
        (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
      ] .))
    ]))
  (#not-eq? @_generic "Promise")
  (#eq? @_promise "Promise")) @cc.def.func.node

; handle = (): T => {} (class field)
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @cc.def.func.name
  value: (_
    return_type: (type_annotation [
      (type_identifier) @cc.def.result
      (nested_type_identifier) @cc.def.result
      (predefined_type) @cc.def.result
      (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
      (generic_type name: (_) @_generic) @cc.def.result
      (generic_type name: (_) @_promise type_arguments: (type_arguments . [
        (type_identifier) @cc.def.result
        (nested_type_identifier) @cc.def.result
        (generic_type) @cc.def.result
        (predefined_type) @cc.def.result
        (union_type . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.def.result . (literal_type) .)
      ] .))
    ]))
  (#not-eq? @_generic "Promise")
  (#eq? @_promise "Promise")) @cc.def.func.node

; ---- imports: ES modules (`import type` and `export type` included)
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

; import x = require('./a')
(import_statement
  (import_require_clause
    (identifier) @cc.import.alias
    source: (string) @cc.import.spec)) @cc.import.node @cc.import.kind.require

; ---- typed bindings: parameters, fields, variables
; (x: T), (x?: T), constructor(private x: T) — bound as x in the function.
; Only functions with a body: parameters of overload signatures, interface
; methods and function types bind nothing.
(_
  parameters: (formal_parameters
    [
      (required_parameter
        pattern: (identifier) @cc.bind.name
        type: (type_annotation [
          (type_identifier) @cc.bind.type
          (nested_type_identifier) @cc.bind.type
          (generic_type) @cc.bind.type
          (predefined_type) @cc.bind.type
          (array_type) @cc.bind.type
          (union_type
            . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.bind.type
            . (literal_type) .)
        ]))
      (optional_parameter
        pattern: (identifier) @cc.bind.name
        type: (type_annotation [
          (type_identifier) @cc.bind.type
          (nested_type_identifier) @cc.bind.type
          (generic_type) @cc.bind.type
          (predefined_type) @cc.bind.type
          (array_type) @cc.bind.type
          (union_type
            . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.bind.type
            . (literal_type) .)
        ]))
    ])
  body: (_))

; class fields: private repo: Repo (a binding in the class scope)
(public_field_definition
  name: (property_identifier) @cc.bind.name
  type: (type_annotation [
    (type_identifier) @cc.bind.type
    (nested_type_identifier) @cc.bind.type
    (generic_type) @cc.bind.type
    (predefined_type) @cc.bind.type
    (array_type) @cc.bind.type
    (union_type
      . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.bind.type
      . (literal_type) .)
  ]))

; interface fields: repo: Repo
(interface_body
  (property_signature
    name: (property_identifier) @cc.bind.name
    type: (type_annotation [
      (type_identifier) @cc.bind.type
      (nested_type_identifier) @cc.bind.type
      (generic_type) @cc.bind.type
      (predefined_type) @cc.bind.type
      (union_type
        . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.bind.type
        . (literal_type) .)
    ])))

; const x: T = ... (const xs: T[] says what xs holds)
(variable_declarator
  name: (identifier) @cc.bind.name
  type: (type_annotation [
    (type_identifier) @cc.bind.type
    (nested_type_identifier) @cc.bind.type
    (generic_type) @cc.bind.type
    (predefined_type) @cc.bind.type
    (array_type) @cc.bind.type
    (union_type
      . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.bind.type
      . (literal_type) .)
  ]))

; untyped declarations take the type of their value; a declared type wins
; const x = new T() / const x = y as T (typescript.scm adds const x = <T>y)
(variable_declarator
  name: (identifier) @cc.bind.name
  !type
  value: [
    (new_expression constructor: [(identifier) (member_expression)] @cc.bind.type)
    (as_expression [(type_identifier) (nested_type_identifier) (generic_type)] @cc.bind.type .)
  ])

; let windows = [new Subject<T>()]: what the array holds
(variable_declarator
  name: (identifier) @cc.bind.elems
  !type
  value: (array . (new_expression constructor: [(identifier) (member_expression)] @cc.bind.type)))

; const x = f() / mod.f() (not require) / await f()
(variable_declarator
  name: (identifier) @cc.bind.name
  !type
  value: [
    (call_expression function: [(identifier) (member_expression)] @cc.bind.call)
    (await_expression (call_expression function: [(identifier) (member_expression)] @cc.bind.call))
  ]
  (#not-eq? @cc.bind.call "require"))

; class field initialised without a declared type: repo = new Repo()
(public_field_definition
  name: (property_identifier) @cc.bind.name
  !type
  value: (new_expression
    constructor: [(identifier) (member_expression)] @cc.bind.type))

; x = new T() / this.x = new T() (and call results)
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
  right: [
    (call_expression function: [(identifier) (member_expression)] @cc.bind.call)
    (await_expression (call_expression function: [(identifier) (member_expression)] @cc.bind.call))
  ]
  (#not-eq? @cc.bind.call "require"))

; constructor(private svc: Service): a parameter property is also a field
(required_parameter
  (accessibility_modifier) @cc.bind.field
  pattern: (identifier) @cc.bind.name
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @cc.bind.type))

; parameters are variables (see the local names in js-common.scm)
(required_parameter pattern: (identifier) @cc.local.name)
(optional_parameter pattern: (identifier) @cc.local.name)
