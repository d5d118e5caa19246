; Go: package, definitions, imports, call sites and typed bindings.
;
; Grammar notes (smacker/go-tree-sitter, 2024 Go grammar):
; - a method's name is a field_identifier, a function's an identifier;
; - `F[int](x)` with exactly one argument parses as a type_conversion_expression
;   over a generic_type (`pkg.F[int](x)` over a generic_type of a
;   qualified_type); with zero or several arguments it is a call_expression
;   with a type_arguments field;
; - embedded interfaces are type_elem nodes, as are constraint unions
;   (`~int | string`), which have several children;
; - import aliases are package_identifier, dot and blank_identifier nodes in
;   the import_spec's name field.

; ---- package
(package_clause (package_identifier) @cc.package.name)

; ---- functions and methods
(function_declaration
  name: (identifier) @cc.def.func.name
  body: (block)? @cc.def.body) @cc.def.func.node

(function_declaration
  name: (identifier) @cc.def.func.name
  result: [(type_identifier) (qualified_type) (pointer_type) (generic_type)] @cc.def.result) @cc.def.func.node

(function_declaration
  name: (identifier) @cc.def.func.name
  result: (parameter_list . (parameter_declaration type: (_) @cc.def.result))) @cc.def.func.node

(method_declaration
  receiver: (parameter_list (parameter_declaration type: (_) @cc.def.receiver))
  name: (field_identifier) @cc.def.func.name
  body: (block)? @cc.def.body) @cc.def.func.node

(method_declaration
  name: (field_identifier) @cc.def.func.name
  result: [(type_identifier) (qualified_type) (pointer_type) (generic_type)] @cc.def.result) @cc.def.func.node

(method_declaration
  name: (field_identifier) @cc.def.func.name
  result: (parameter_list . (parameter_declaration type: (_) @cc.def.result))) @cc.def.func.node

; ---- types: every named type is class-like
(type_spec name: (type_identifier) @cc.def.class.name) @cc.def.class.node

(type_spec
  name: (type_identifier) @cc.def.class.name
  type: (struct_type (field_declaration_list) @cc.def.body)) @cc.def.class.node

; An alias has the methods of the type it names.
(type_alias
  name: (type_identifier) @cc.def.class.name
  type: [(type_identifier) (qualified_type) (generic_type)] @cc.def.base) @cc.def.class.node

; Embedded struct fields are bases (their methods are promoted) ...
(type_spec
  name: (type_identifier) @cc.def.class.name
  type: (struct_type
    (field_declaration_list
      (field_declaration !name type: (_) @cc.def.base)))) @cc.def.class.node

; ... and so are embedded interfaces; a type_elem with one child is an
; embedding, a union or ~T is a constraint.
(type_spec
  name: (type_identifier) @cc.def.class.name
  type: (interface_type
    (type_elem . [(type_identifier) (qualified_type) (generic_type)] @cc.def.base .))) @cc.def.class.node

; Interface methods: body-less funcs nested in the interface.
(method_elem name: (field_identifier) @cc.def.func.name) @cc.def.func.node

(method_elem
  name: (field_identifier) @cc.def.func.name
  result: [(type_identifier) (qualified_type) (pointer_type) (generic_type)] @cc.def.result) @cc.def.func.node

(method_elem
  name: (field_identifier) @cc.def.func.name
  result: (parameter_list . (parameter_declaration type: (_) @cc.def.result))) @cc.def.func.node

; ---- imports
(import_spec !name path: (_) @cc.import.spec) @cc.import.node

(import_spec
  name: [(package_identifier) (blank_identifier)] @cc.import.alias
  path: (_) @cc.import.spec) @cc.import.node

(import_spec name: (dot) @cc.import.star path: (_) @cc.import.spec) @cc.import.node

; ---- calls
(call_expression function: (identifier) @cc.call.target) @cc.call.node

(call_expression
  function: (selector_expression
    operand: (_) @cc.call.receiver
    field: (field_identifier) @cc.call.target)) @cc.call.node

; F[int](x), pkg.F[int](x): read by the grammar as conversions.
(type_conversion_expression
  type: (generic_type type: (type_identifier) @cc.call.target)) @cc.call.node

(type_conversion_expression
  type: (generic_type
    type: (qualified_type
      package: (package_identifier) @cc.call.receiver
      name: (type_identifier) @cc.call.target))) @cc.call.node

; ---- typed bindings
; receivers and parameters (variadic ones hold a slice, not the type)
(method_declaration
  receiver: (parameter_list
    (parameter_declaration name: (identifier) @cc.bind.name type: (_) @cc.bind.type)))

(function_declaration
  parameters: (parameter_list
    (parameter_declaration name: (identifier) @cc.bind.name type: (_) @cc.bind.type)))

(method_declaration
  parameters: (parameter_list
    (parameter_declaration name: (identifier) @cc.bind.name type: (_) @cc.bind.type)))

(func_literal
  parameters: (parameter_list
    (parameter_declaration name: (identifier) @cc.bind.name type: (_) @cc.bind.type)))

; named struct fields, scoped to their type; embedded fields are named after
; their type
(type_spec
  type: (struct_type
    (field_declaration_list
      (field_declaration name: (field_identifier) @cc.bind.name type: (_) @cc.bind.type))))

(type_spec
  type: (struct_type
    (field_declaration_list
      (field_declaration
        !name
        type: [(type_identifier) @cc.bind.name
               (qualified_type name: (type_identifier) @cc.bind.name)
               (pointer_type [(type_identifier) @cc.bind.name
                              (qualified_type name: (type_identifier) @cc.bind.name)])
               (generic_type type: [(type_identifier) @cc.bind.name
                                    (qualified_type name: (type_identifier) @cc.bind.name)])] @cc.bind.type))))

; var x T; var a, b T
(var_spec name: (identifier) @cc.bind.name type: (_) @cc.bind.type)

; var x = T{} / &T{} / NewT() (first name, first value)
(var_spec
  . name: (identifier) @cc.bind.name
  !type
  value: (expression_list
    . [(composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @cc.bind.type)
       (unary_expression "&" operand: (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @cc.bind.type))]))

(var_spec
  . name: (identifier) @cc.bind.name
  !type
  value: (expression_list
    . [(call_expression function: [(identifier) (selector_expression)] @cc.bind.call)
       (type_conversion_expression type: (generic_type type: (_) @cc.bind.call))]))

; x := T{} / &T{} / NewT(); x, err := pkg.NewT()
(short_var_declaration
  left: (expression_list . (identifier) @cc.bind.name)
  right: (expression_list
    . [(composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @cc.bind.type)
       (unary_expression "&" operand: (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @cc.bind.type))]))

(short_var_declaration
  left: (expression_list . (identifier) @cc.bind.name)
  right: (expression_list
    . [(call_expression function: [(identifier) (selector_expression)] @cc.bind.call)
       (type_conversion_expression type: (generic_type type: (_) @cc.bind.call))]))

; x := v.(*T), x, ok := v.(T): typed by the assertion
(short_var_declaration
  left: (expression_list . (identifier) @cc.bind.name)
  right: (expression_list . (type_assertion_expression type: (_) @cc.bind.type)))

; named results: func f() (d *decoder, err error)
(function_declaration
  result: (parameter_list
    (parameter_declaration name: (identifier) @cc.bind.name type: (_) @cc.bind.type)))
(method_declaration
  result: (parameter_list
    (parameter_declaration name: (identifier) @cc.bind.name type: (_) @cc.bind.type)))

; ---- qualified references that are not calls (pkg.T in types, pkg.Var);
; the extractor keeps those whose qualifier is an import.
(qualified_type
  package: (package_identifier) @cc.ref.receiver
  name: (type_identifier) @cc.ref.name)
(selector_expression
  operand: (identifier) @cc.ref.receiver
  field: (field_identifier) @cc.ref.name)

; ---- x := y.z, x := y, var x = y.z: typed like the value
(short_var_declaration
  left: (expression_list . (identifier) @cc.bind.name)
  right: (expression_list . [(selector_expression) (identifier)] @cc.bind.value))
(var_spec
  . name: (identifier) @cc.bind.name
  !type
  value: (expression_list . [(selector_expression) (identifier)] @cc.bind.value))

; ---- package-level variables and constants: not nodes, but references to
; them (pkg.Var) show which file of a package an importer uses
(source_file (var_declaration (var_spec name: (identifier) @cc.value.name)))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @cc.value.name))))
(source_file (const_declaration (const_spec name: (identifier) @cc.value.name)))

; ---- function values: names in value positions (arguments, right-hand
; sides, returned values, composite literal elements); the extractor keeps
; those that may name a function and the resolver makes reference edges
; (http.HandlerFunc(mx.routeHTTP), lx.state = lexText, {"bool": boolConv})
(argument_list [(identifier) (selector_expression)] @cc.value.ref)
(assignment_statement right: (expression_list [(identifier) (selector_expression)] @cc.value.ref))
(short_var_declaration right: (expression_list [(identifier) (selector_expression)] @cc.value.ref))
(var_spec value: (expression_list [(identifier) (selector_expression)] @cc.value.ref))
(return_statement (expression_list [(identifier) (selector_expression)] @cc.value.ref))
(literal_value (literal_element [(identifier) (selector_expression)] @cc.value.ref))
(keyed_element (literal_element) (literal_element [(identifier) (selector_expression)] @cc.value.ref))

; ---- instantiations: a value of a type is made here. The resolver makes
; reference edges to the type; the tests search then knows which
; implementations of an interface a test can reach (T{}, &T{}, new(T),
; (*T)(x), var x T; a conversion T(x) is not told from a call here)
(composite_literal type: [(type_identifier) (qualified_type)] @cc.inst.type)
(composite_literal type: (generic_type type: [(type_identifier) (qualified_type)] @cc.inst.type))
((call_expression
   function: (identifier) @_new
   arguments: (argument_list . [(type_identifier) (qualified_type)] @cc.inst.type))
 (#eq? @_new "new"))
(call_expression
  function: (parenthesized_expression
    (unary_expression operand: [(identifier) (selector_expression)] @cc.inst.type)))
(var_spec type: [(type_identifier) (qualified_type)] @cc.inst.type)

; names bound as variables and parameters: a bare name among them in a
; value position is not taken for a function of that name
(short_var_declaration left: (expression_list (identifier) @cc.local.name))
(assignment_statement left: (expression_list (identifier) @cc.local.name))
(var_spec name: (identifier) @cc.local.name)
(range_clause left: (expression_list (identifier) @cc.local.name))
(parameter_declaration name: (identifier) @cc.local.name)
(variadic_parameter_declaration name: (identifier) @cc.local.name)
