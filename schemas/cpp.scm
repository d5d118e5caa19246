; C++: everything of C plus classes, namespaces, methods (in the class body
; and out of line), templates, new-expressions and typed bindings.

; ---- definitions
; A function's name sits inside its declarators: `int f()`, `char *f()`,
; `Foo &Foo::get()`, `char **f()`. In a class body a method's name is a
; field_identifier (a constructor's an identifier); out of line it is a
; qualified_identifier (`Foo::bar`, `Foo::Foo`, `Foo::~Foo`, `Box<T>::get`)
; that the engine splits into owner and name. Template declarations wrap the
; function_definition, which matches here by itself. Declarations without a
; body (prototypes, in-class method declarations, `= default`) are not
; definitions.
(function_definition
  declarator: [
    (function_declarator
      declarator: [(identifier) (field_identifier) (qualified_identifier) (destructor_name) (operator_name)] @cc.def.func.name)
    (pointer_declarator
      declarator: (function_declarator
        declarator: [(identifier) (field_identifier) (qualified_identifier) (operator_name)] @cc.def.func.name))
    (reference_declarator
      (function_declarator
        declarator: [(identifier) (field_identifier) (qualified_identifier) (operator_name)] @cc.def.func.name))
    (pointer_declarator
      declarator: (pointer_declarator
        declarator: (function_declarator
          declarator: [(identifier) (field_identifier) (qualified_identifier)] @cc.def.func.name)))
  ]
  body: (compound_statement) @cc.def.body) @cc.def.func.node

; The declared result type, when it names a type (not `void`, `int`, `auto`).
(function_definition
  type: [(type_identifier) (qualified_identifier) (template_type) (struct_specifier) (class_specifier)] @cc.def.result
  declarator: [
    (function_declarator
      declarator: [(identifier) (field_identifier) (qualified_identifier) (operator_name)] @cc.def.func.name)
    (pointer_declarator
      declarator: (function_declarator
        declarator: [(identifier) (field_identifier) (qualified_identifier) (operator_name)] @cc.def.func.name))
    (reference_declarator
      (function_declarator
        declarator: [(identifier) (field_identifier) (qualified_identifier) (operator_name)] @cc.def.func.name))
  ]
  body: (compound_statement)) @cc.def.func.node

; Classes, structs, unions and enums with a name and a body.
[
  (class_specifier
    name: (type_identifier) @cc.def.class.name
    body: (field_declaration_list) @cc.def.body)
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

; One base per match: `class D : public B, private ns::Other<T>`.
[
  (class_specifier
    name: (type_identifier) @cc.def.class.name
    (base_class_clause
      [(type_identifier) (qualified_identifier) (template_type)] @cc.def.base))
  (struct_specifier
    name: (type_identifier) @cc.def.class.name
    (base_class_clause
      [(type_identifier) (qualified_identifier) (template_type)] @cc.def.base))
] @cc.def.class.node

; `typedef struct { .. } Name;` names an anonymous type.
(type_definition
  type: [
    (struct_specifier !name body: (field_declaration_list) @cc.def.body)
    (union_specifier !name body: (field_declaration_list) @cc.def.body)
    (enum_specifier !name body: (enumerator_list) @cc.def.body)
  ]
  declarator: (type_identifier) @cc.def.class.name) @cc.def.class.node

; A named namespace qualifies what it contains (`namespace a::b` is split
; like a qualified name). Anonymous namespaces add nothing.
(namespace_definition
  name: [(namespace_identifier) (nested_namespace_specifier)] @cc.def.class.name
  body: (declaration_list) @cc.def.body) @cc.def.class.node

; ---- imports
(preproc_include
  path: (string_literal) @cc.import.spec) @cc.import.node

(preproc_include
  path: (system_lib_string) @cc.import.spec @cc.import.kind.include_system) @cc.import.node

; ---- calls
(call_expression
  function: (identifier) @cc.call.target) @cc.call.node

; `::f()`
(call_expression
  function: (qualified_identifier
    !scope
    name: (identifier) @cc.call.target)) @cc.call.node

; `obj.m()`, `ptr->m()`, `this->m()`, `obj.m<T>()`: member calls.
(call_expression
  function: (field_expression
    argument: (_) @cc.call.receiver
    field: [
      (field_identifier) @cc.call.target
      (template_method name: (field_identifier) @cc.call.target)
    ])) @cc.call.node

; `ns::f()`, `Foo::create()`, `Base::area()`, `std::make_unique<T>()`
(call_expression
  function: (qualified_identifier
    scope: (_) @cc.call.receiver
    name: [
      (identifier) @cc.call.target
      (template_function name: (identifier) @cc.call.target)
    ])) @cc.call.node

; `a::b::f()`, `a::b::c::f()`: the whole name, split by the engine.
(call_expression
  function: (qualified_identifier
    name: (qualified_identifier
      name: [
        (identifier)
        (qualified_identifier name: (identifier))
      ])) @cc.call.target) @cc.call.node

; `make<T>()`
(call_expression
  function: (template_function name: (identifier) @cc.call.target)) @cc.call.node

; `new Foo()`, `new ns::Foo`, `new Box<T>()`
(new_expression
  type: [
    (type_identifier) @cc.call.target
    (qualified_identifier) @cc.call.target
    (template_type name: (type_identifier) @cc.call.target)
  ]) @cc.call.new

; Direct initialisation constructs: `Foo x(1);`, `Foo x{1};`
(declaration
  type: [(type_identifier) (qualified_identifier)] @cc.call.target
  declarator: (init_declarator
    value: [(argument_list) (initializer_list)]) @cc.call.new)

; A constructor's initialiser list calls the base constructors: `: Base(x)`
; (a member initialiser `y(x)` names no class and resolves to nothing).
(field_initializer
  (field_identifier) @cc.call.target
  (argument_list)) @cc.call.new

; ---- typed bindings (class-typed only: primitives type no calls)
; Parameters `Foo f`, `const Foo& f`, `Foo* f`, `Foo&& f`, `Foo f = ..` of
; function definitions and lambdas (a prototype's parameters, in a class
; body or at top level, would read as fields or globals).
(function_definition
  declarator: [
    (function_declarator
      parameters: (parameter_list
        [
          (parameter_declaration
            type: [(type_identifier) (qualified_identifier) (template_type)] @cc.bind.type
            declarator: [
              (identifier) @cc.bind.name
              (pointer_declarator declarator: (identifier) @cc.bind.name)
              (reference_declarator (identifier) @cc.bind.name)
            ])
          (optional_parameter_declaration
            type: [(type_identifier) (qualified_identifier) (template_type)] @cc.bind.type
            declarator: [
              (identifier) @cc.bind.name
              (pointer_declarator declarator: (identifier) @cc.bind.name)
              (reference_declarator (identifier) @cc.bind.name)
            ])
        ]))
    (pointer_declarator
      declarator: (function_declarator
        parameters: (parameter_list
          [
            (parameter_declaration
              type: [(type_identifier) (qualified_identifier) (template_type)] @cc.bind.type
              declarator: [
                (identifier) @cc.bind.name
                (pointer_declarator declarator: (identifier) @cc.bind.name)
                (reference_declarator (identifier) @cc.bind.name)
              ])
            (optional_parameter_declaration
              type: [(type_identifier) (qualified_identifier) (template_type)] @cc.bind.type
              declarator: [
                (identifier) @cc.bind.name
                (pointer_declarator declarator: (identifier) @cc.bind.name)
                (reference_declarator (identifier) @cc.bind.name)
              ])
          ])))
    (reference_declarator
      (function_declarator
        parameters: (parameter_list
          [
            (parameter_declaration
              type: [(type_identifier) (qualified_identifier) (template_type)] @cc.bind.type
              declarator: [
                (identifier) @cc.bind.name
                (pointer_declarator declarator: (identifier) @cc.bind.name)
                (reference_declarator (identifier) @cc.bind.name)
              ])
            (optional_parameter_declaration
              type: [(type_identifier) (qualified_identifier) (template_type)] @cc.bind.type
              declarator: [
                (identifier) @cc.bind.name
                (pointer_declarator declarator: (identifier) @cc.bind.name)
                (reference_declarator (identifier) @cc.bind.name)
              ])
          ])))
  ])

(lambda_expression
  declarator: (abstract_function_declarator
    parameters: (parameter_list
      [
        (parameter_declaration
          type: [(type_identifier) (qualified_identifier) (template_type)] @cc.bind.type
          declarator: [
            (identifier) @cc.bind.name
            (pointer_declarator declarator: (identifier) @cc.bind.name)
            (reference_declarator (identifier) @cc.bind.name)
          ])
        (optional_parameter_declaration
          type: [(type_identifier) (qualified_identifier) (template_type)] @cc.bind.type
          declarator: [
            (identifier) @cc.bind.name
            (pointer_declarator declarator: (identifier) @cc.bind.name)
            (reference_declarator (identifier) @cc.bind.name)
          ])
      ])))

; Variables `Foo x;`, `Foo x(1);`, `Foo* p = new Foo();`, `const Foo& r = ..`.
(declaration
  type: [(type_identifier) (qualified_identifier) (template_type)] @cc.bind.type
  declarator: [
    (identifier) @cc.bind.name
    (pointer_declarator declarator: (identifier) @cc.bind.name)
    (init_declarator
      declarator: [
        (identifier) @cc.bind.name
        (pointer_declarator declarator: (identifier) @cc.bind.name)
        (reference_declarator (identifier) @cc.bind.name)
      ])
  ])

; `auto p = new Foo();`, `auto f = Foo{1};`
(declaration
  type: (placeholder_type_specifier)
  declarator: (init_declarator
    declarator: [
      (identifier) @cc.bind.name
      (pointer_declarator declarator: (identifier) @cc.bind.name)
    ]
    value: [
      (new_expression type: [(type_identifier) (qualified_identifier)] @cc.bind.type)
      (new_expression type: (template_type name: (_) @cc.bind.type))
      (compound_literal_expression type: [(type_identifier) (qualified_identifier)] @cc.bind.type)
    ]))

; `auto x = make();`, `auto x = Foo::create();`, `auto x = Foo(1);`
(declaration
  type: (placeholder_type_specifier)
  declarator: (init_declarator
    declarator: [
      (identifier) @cc.bind.name
      (pointer_declarator declarator: (identifier) @cc.bind.name)
      (reference_declarator (identifier) @cc.bind.name)
    ]
    value: (call_expression
      function: [
        (identifier)
        (qualified_identifier name: (identifier))
      ] @cc.bind.call)))

; `auto p = std::make_unique<Foo>(..)` / `std::make_shared<Foo>(..)` hold a Foo.
(declaration
  type: (placeholder_type_specifier)
  declarator: (init_declarator
    declarator: (identifier) @cc.bind.name
    value: (call_expression
      function: (qualified_identifier
        scope: (namespace_identifier) @_std
        name: (template_function
          name: (identifier) @_make
          arguments: (template_argument_list
            .
            (type_descriptor
              type: [(type_identifier) (qualified_identifier)] @cc.bind.type))))))
  (#eq? @_std "std")
  (#match? @_make "^make_(unique|shared)$"))

; Class fields bind in the class scope: `Foo* f;`, `std::vector<int> v;`.
(field_declaration
  type: [(type_identifier) (qualified_identifier) (template_type)] @cc.bind.type
  declarator: [
    (field_identifier) @cc.bind.name
    (pointer_declarator declarator: (field_identifier) @cc.bind.name)
    (reference_declarator (field_identifier) @cc.bind.name)
  ])
