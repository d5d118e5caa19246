; Rust: definitions, impl scopes, use/mod imports, call sites and typed bindings.

; ---- definitions
; Type-like items; the body (when there is one) ends the signature.
[
  (struct_item name: (type_identifier) @cc.def.class.name body: (_)? @cc.def.body)
  (enum_item name: (type_identifier) @cc.def.class.name body: (_) @cc.def.body)
  (union_item name: (type_identifier) @cc.def.class.name body: (_) @cc.def.body)
  (trait_item name: (type_identifier) @cc.def.class.name body: (_) @cc.def.body)
] @cc.def.class.node

; Supertraits are the bases of a trait.
(trait_item
  name: (type_identifier) @cc.def.class.name
  bounds: (trait_bounds
    [(type_identifier) (scoped_type_identifier) (generic_type)] @cc.def.base)) @cc.def.class.node

; An inline module is a namespace; `mod m;` is an import (below).
(mod_item
  name: (identifier) @cc.def.class.name
  body: (declaration_list) @cc.def.body) @cc.def.class.node

(function_item
  name: (identifier) @cc.def.func.name
  body: (block) @cc.def.body) @cc.def.func.node

(function_item
  name: (identifier) @cc.def.func.name
  return_type: (_) @cc.def.result
  (#not-eq? @cc.def.result "Self")) @cc.def.func.node

; `fn new() -> Self` inside `impl T` returns T.
(impl_item
  type: (_) @cc.def.result
  body: (declaration_list
    (function_item
      name: (identifier) @cc.def.func.name
      return_type: (type_identifier) @_self
      (#eq? @_self "Self")) @cc.def.func.node))

; Required trait methods (no body) are definitions of the trait.
(trait_item
  body: (declaration_list
    (function_signature_item name: (identifier) @cc.def.func.name) @cc.def.func.node))

; `impl T { .. }` and `impl Trait for T { .. }` make T the owner of the
; functions inside. A path (`impl super::T`, `impl a::T<U>`) names T by its
; last segment, as the type is defined elsewhere.
(impl_item
  type: (_) @cc.scope.name
  body: (declaration_list)
  (#not-match? @cc.scope.name "^[^<]*::")) @cc.scope.node

(impl_item
  type: [
    (scoped_type_identifier name: (type_identifier) @cc.scope.name)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @cc.scope.name))
  ]
  body: (declaration_list)) @cc.scope.node

; Attributes are siblings preceding their item (`#[test]`, `#[tokio::test]`,
; `#[derive(..)]`); further attributes and comments may stand between.
((attribute_item (attribute) @cc.def.decorator)
  .
  [(attribute_item) (line_comment) (block_comment)]*
  .
  (function_item name: (identifier) @cc.def.func.name) @cc.def.func.node)

((attribute_item (attribute) @cc.def.decorator)
  .
  [(attribute_item) (line_comment) (block_comment)]*
  .
  [
    (struct_item name: (type_identifier) @cc.def.class.name)
    (enum_item name: (type_identifier) @cc.def.class.name)
    (union_item name: (type_identifier) @cc.def.class.name)
    (trait_item name: (type_identifier) @cc.def.class.name)
    (mod_item name: (identifier) @cc.def.class.name body: (declaration_list))
  ] @cc.def.class.node)

; ---- imports
; `mod m;` declares the module file m.rs or m/mod.rs.
(mod_item
  name: (identifier) @cc.import.spec @cc.import.kind.mod
  !body) @cc.import.node

; `pub use` re-exports: the optional visibility is captured as the kind.
; `use a::b::C;` → spec a::b, name C
(use_declaration
  (visibility_modifier)? @cc.import.kind.reexport
  argument: (scoped_identifier
    path: (_) @cc.import.spec
    name: (identifier) @cc.import.name)) @cc.import.node

; `use foo;`
(use_declaration
  (visibility_modifier)? @cc.import.kind.reexport
  argument: (identifier) @cc.import.spec) @cc.import.node

; `use a::b::C as D;`
(use_declaration
  (visibility_modifier)? @cc.import.kind.reexport
  argument: (use_as_clause
    path: (scoped_identifier
      path: (_) @cc.import.spec
      name: (identifier) @cc.import.name)
    alias: (identifier) @cc.import.alias)) @cc.import.node

; `use foo as bar;`
(use_declaration
  (visibility_modifier)? @cc.import.kind.reexport
  argument: (use_as_clause
    path: (identifier) @cc.import.spec
    alias: (identifier) @cc.import.alias)) @cc.import.node

; `use a::b::{c, d::e};` → one import per name.
(use_declaration
  (visibility_modifier)? @cc.import.kind.reexport
  argument: (scoped_use_list
    path: (_) @cc.import.spec
    list: (use_list [(identifier) (scoped_identifier)] @cc.import.name))) @cc.import.node

; `use a::b::{c as d};`
(use_declaration
  (visibility_modifier)? @cc.import.kind.reexport
  argument: (scoped_use_list
    path: (_) @cc.import.spec
    list: (use_list
      (use_as_clause
        path: [(identifier) (scoped_identifier)] @cc.import.name
        alias: (identifier) @cc.import.alias)))) @cc.import.node

; `use a::b::{self, ..};` imports the module a::b itself.
(use_declaration
  (visibility_modifier)? @cc.import.kind.reexport
  argument: (scoped_use_list
    path: (scoped_identifier
      path: (_) @cc.import.spec
      name: (identifier) @cc.import.name)
    list: (use_list (self)))) @cc.import.node

; `use a::{b::{c, d}};`: a nested list can only be recorded as its module
; (spec a, name b); its own names would need the two paths joined.
(use_declaration
  (visibility_modifier)? @cc.import.kind.reexport
  argument: (scoped_use_list
    path: (_) @cc.import.spec
    list: (use_list
      (scoped_use_list path: [(identifier) (scoped_identifier)] @cc.import.name)))) @cc.import.node

; `use a::b::*;`, `use super::*;`
(use_declaration
  (visibility_modifier)? @cc.import.kind.reexport
  argument: (use_wildcard (_) @cc.import.spec) @cc.import.star) @cc.import.node

; `extern crate foo;`, `extern crate foo as bar;`
(extern_crate_declaration
  name: (identifier) @cc.import.spec
  !alias) @cc.import.node

(extern_crate_declaration
  name: (identifier) @cc.import.spec
  alias: (identifier) @cc.import.alias) @cc.import.node

; ---- calls (macro invocations are not calls)
(call_expression
  function: (identifier) @cc.call.target) @cc.call.node

; `self.helper()`, `x.m()`, `a.b.m()`
(call_expression
  function: (field_expression
    value: (_) @cc.call.receiver
    field: (field_identifier) @cc.call.target)) @cc.call.node

; `Type::new()`, `a::b::f()`, `Self::new()`, `super::f()`
(call_expression
  function: (scoped_identifier
    path: [(identifier) (scoped_identifier) (self) (super) (crate)] @cc.call.receiver
    name: (identifier) @cc.call.target)) @cc.call.node

; `Vec::<u8>::new()`, `Foo::<T>::bar()`: the receiver is the bare type.
(call_expression
  function: (scoped_identifier
    path: (generic_type type: (_) @cc.call.receiver)
    name: (identifier) @cc.call.target)) @cc.call.node

; Turbofish calls: `f::<T>()`, `a::f::<T>()`, `x.m::<T>()`
(call_expression
  function: (generic_function
    function: (identifier) @cc.call.target)) @cc.call.node

(call_expression
  function: (generic_function
    function: (scoped_identifier
      path: [(identifier) (scoped_identifier) (self) (super) (crate)] @cc.call.receiver
      name: (identifier) @cc.call.target))) @cc.call.node

(call_expression
  function: (generic_function
    function: (field_expression
      value: (_) @cc.call.receiver
      field: (field_identifier) @cc.call.target))) @cc.call.node

; ---- typed bindings
; A type with a lifetime (`&'a T`) is bound by its referent; NormType
; rejects the whole text, so no duplicate binding arises.
; Parameters `x: T`, `x: &T`, `mut x: &mut T` of functions and closures (not
; of extern or trait declarations, which have no body to scope them).
(function_item
  parameters: (parameters
    (parameter
      pattern: (identifier) @cc.bind.name
      type: (_) @cc.bind.type)))

(function_item
  parameters: (parameters
    (parameter
      pattern: (identifier) @cc.bind.name
      type: (reference_type (lifetime) type: (_) @cc.bind.type))))

(closure_parameters
  (parameter
    pattern: (identifier) @cc.bind.name
    type: (_) @cc.bind.type))

; `let x: T = ..`
(let_declaration
  pattern: (identifier) @cc.bind.name
  type: (_) @cc.bind.type)

; Module-level `static X: T = ..` and `const X: T = ..` (associated consts
; in impls would otherwise land at module level).
(source_file
  [
    (static_item name: (identifier) @cc.bind.name type: (_) @cc.bind.type)
    (const_item name: (identifier) @cc.bind.name type: (_) @cc.bind.type)
  ])

(mod_item
  body: (declaration_list
    [
      (static_item name: (identifier) @cc.bind.name type: (_) @cc.bind.type)
      (const_item name: (identifier) @cc.bind.name type: (_) @cc.bind.type)
    ]))

; `let x = T::new();`, `let x = make()?;` (untyped lets only)
(let_declaration
  pattern: (identifier) @cc.bind.name
  !type
  value: [
    (call_expression
      function: [
        (identifier)
        (scoped_identifier
          path: [(identifier) (scoped_identifier) (self) (super) (crate)])
      ] @cc.bind.call)
    (try_expression
      (call_expression
        function: [
          (identifier)
          (scoped_identifier
            path: [(identifier) (scoped_identifier) (self) (super) (crate)])
        ] @cc.bind.call))
  ])

; `let x = T { .. };`, `let x = m::T { .. };`, `let x = T::<U> { .. };`
(let_declaration
  pattern: (identifier) @cc.bind.name
  !type
  value: (struct_expression
    name: [(type_identifier) (scoped_type_identifier)] @cc.bind.type))

(let_declaration
  pattern: (identifier) @cc.bind.name
  !type
  value: (struct_expression
    name: (generic_type_with_turbofish type: (_) @cc.bind.type)))

; Struct and union fields bind in the type's scope.
(field_declaration
  name: (field_identifier) @cc.bind.name
  type: (_) @cc.bind.type)

(field_declaration
  name: (field_identifier) @cc.bind.name
  type: (reference_type (lifetime) type: (_) @cc.bind.type))
