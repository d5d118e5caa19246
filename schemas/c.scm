; C: function and type definitions, #include imports, call sites.

; ---- definitions
; The name of a function sits inside its declarators: `int f(void)`,
; `char *f(void)`, `char **f(void)`, `int (*f(void))(int)` (returns a
; function pointer). Prototypes have no body and are not definitions.
(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @cc.def.func.name)
    (pointer_declarator
      declarator: (function_declarator declarator: (identifier) @cc.def.func.name))
    (pointer_declarator
      declarator: (pointer_declarator
        declarator: (function_declarator declarator: (identifier) @cc.def.func.name)))
    (function_declarator
      declarator: (parenthesized_declarator
        (pointer_declarator
          declarator: (function_declarator declarator: (identifier) @cc.def.func.name))))
  ]
  body: (compound_statement) @cc.def.body) @cc.def.func.node

; The declared result type, when it names a type (not `void`, `int`).
(function_definition
  type: [(type_identifier) (struct_specifier) (union_specifier) (enum_specifier)] @cc.def.result
  declarator: [
    (function_declarator declarator: (identifier) @cc.def.func.name)
    (pointer_declarator
      declarator: (function_declarator declarator: (identifier) @cc.def.func.name))
  ]
  body: (compound_statement)) @cc.def.func.node

; Named structs, unions and enums with a body.
[
  (struct_specifier
    name: (type_identifier) @cc.def.class.name
    body: (field_declaration_list) @cc.def.body)
  (union_specifier
    name: (type_identifier) @cc.def.class.name
    body: (field_declaration_list) @cc.def.body)
  (enum_specifier
    name: (type_identifier) @cc.def.class.name
    body: (enumerator_list) @cc.def.body)
] @cc.def.class.node

; `typedef struct { .. } Name;` names an anonymous type.
(type_definition
  type: [
    (struct_specifier !name body: (field_declaration_list) @cc.def.body)
    (union_specifier !name body: (field_declaration_list) @cc.def.body)
    (enum_specifier !name body: (enumerator_list) @cc.def.body)
  ]
  declarator: (type_identifier) @cc.def.class.name) @cc.def.class.node

; ---- imports
(preproc_include
  path: (string_literal) @cc.import.spec) @cc.import.node

(preproc_include
  path: (system_lib_string) @cc.import.spec @cc.import.kind.include_system) @cc.import.node

; ---- calls
(call_expression
  function: (identifier) @cc.call.target) @cc.call.node

; A call through a struct field (`s->handler(x)`, `ops.run()`) is a member
; call: the resolver leaves it unresolved rather than invent an edge.
(call_expression
  function: (field_expression
    argument: (_) @cc.call.receiver
    field: (field_identifier) @cc.call.target)) @cc.call.node
