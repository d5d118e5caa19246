; Java: package, type and method definitions, imports, call sites and typed
; bindings.

; ---- package
(package_declaration [(scoped_identifier) (identifier)] @cc.package.name)

; ---- type definitions (classes, interfaces, enums, records, annotation types)
(class_declaration
  name: (identifier) @cc.def.class.name
  body: (class_body) @cc.def.body) @cc.def.class.node

(class_declaration
  name: (identifier) @cc.def.class.name
  superclass: (superclass (_) @cc.def.base)) @cc.def.class.node

(class_declaration
  name: (identifier) @cc.def.class.name
  interfaces: (super_interfaces (type_list (_) @cc.def.base))) @cc.def.class.node

(interface_declaration
  name: (identifier) @cc.def.class.name
  body: (interface_body) @cc.def.body) @cc.def.class.node

(interface_declaration
  name: (identifier) @cc.def.class.name
  (extends_interfaces (type_list (_) @cc.def.base))) @cc.def.class.node

(enum_declaration
  name: (identifier) @cc.def.class.name
  body: (enum_body) @cc.def.body) @cc.def.class.node

(enum_declaration
  name: (identifier) @cc.def.class.name
  interfaces: (super_interfaces (type_list (_) @cc.def.base))) @cc.def.class.node

(record_declaration
  name: (identifier) @cc.def.class.name
  body: (class_body) @cc.def.body) @cc.def.class.node

(record_declaration
  name: (identifier) @cc.def.class.name
  interfaces: (super_interfaces (type_list (_) @cc.def.base))) @cc.def.class.node

(annotation_type_declaration
  name: (identifier) @cc.def.class.name
  body: (annotation_type_body) @cc.def.body) @cc.def.class.node

; annotations on types (@RunWith(...), @Entity)
(class_declaration
  (modifiers [(marker_annotation) (annotation)] @cc.def.decorator)
  name: (identifier) @cc.def.class.name) @cc.def.class.node

(interface_declaration
  (modifiers [(marker_annotation) (annotation)] @cc.def.decorator)
  name: (identifier) @cc.def.class.name) @cc.def.class.node

(enum_declaration
  (modifiers [(marker_annotation) (annotation)] @cc.def.decorator)
  name: (identifier) @cc.def.class.name) @cc.def.class.node

(record_declaration
  (modifiers [(marker_annotation) (annotation)] @cc.def.decorator)
  name: (identifier) @cc.def.class.name) @cc.def.class.node

; ---- methods and constructors (interface methods have no body)
(method_declaration
  name: (identifier) @cc.def.func.name) @cc.def.func.node

(method_declaration
  name: (identifier) @cc.def.func.name
  body: (block) @cc.def.body) @cc.def.func.node

; reference result types only: primitives and arrays type nothing
(method_declaration
  type: [(type_identifier) (generic_type) (scoped_type_identifier)] @cc.def.result
  name: (identifier) @cc.def.func.name) @cc.def.func.node

(method_declaration
  (modifiers [(marker_annotation) (annotation)] @cc.def.decorator)
  name: (identifier) @cc.def.func.name) @cc.def.func.node

; a constructor is named after its class: Foo.java::Foo.Foo
(constructor_declaration
  name: (identifier) @cc.def.func.name
  body: (constructor_body) @cc.def.body) @cc.def.func.node

(constructor_declaration
  (modifiers [(marker_annotation) (annotation)] @cc.def.decorator)
  name: (identifier) @cc.def.func.name) @cc.def.func.node

; record Pt(int x) { Pt { ... } }
(compact_constructor_declaration
  name: (identifier) @cc.def.func.name
  body: (block) @cc.def.body) @cc.def.func.node

; String value() default "" inside @interface
(annotation_type_element_declaration
  name: (identifier) @cc.def.func.name) @cc.def.func.node

; ---- imports
; import a.b.C;  import a.b.*;  import static a.b.C.m;  import static a.b.C.*;
; The trailing anchor keeps the wildcard form out of the single-name pattern;
; the optional anonymous "static" token gives the kind.
(import_declaration
  "static"? @cc.import.kind.static
  [(scoped_identifier) (identifier)] @cc.import.spec .) @cc.import.node

(import_declaration
  "static"? @cc.import.kind.static
  [(scoped_identifier) (identifier)] @cc.import.spec
  (asterisk) @cc.import.star) @cc.import.node

; ---- calls
(method_invocation
  name: (identifier) @cc.call.target) @cc.call.node

; the anchors keep `Outer.super.m()` (an unnamed super child sits between
; object and name) out of the plain receiver reading
(method_invocation
  object: (_) @cc.call.receiver
  .
  name: (identifier) @cc.call.target) @cc.call.node

(method_invocation
  object: (_) @cc.call.receiver
  .
  type_arguments: (type_arguments)
  .
  name: (identifier) @cc.call.target) @cc.call.node

; Outer.super.m(): an interface's default method or an outer class's super
(method_invocation
  object: (_)
  (super) @cc.call.receiver
  name: (identifier) @cc.call.target) @cc.call.node

; new C(), new C<T>(), new a.b.C() (receiver a.b), new Outer.Inner()
(object_creation_expression
  type: (type_identifier) @cc.call.target) @cc.call.new

(object_creation_expression
  type: (generic_type (type_identifier) @cc.call.target)) @cc.call.new

(object_creation_expression
  type: (scoped_type_identifier
    . (_) @cc.call.receiver
    (type_identifier) @cc.call.target .)) @cc.call.new

(object_creation_expression
  type: (generic_type
    (scoped_type_identifier
      . (_) @cc.call.receiver
      (type_identifier) @cc.call.target .))) @cc.call.new

; super(...) in a constructor: a call named "super" (the superclass
; constructor, as JS super(...)); this(...): a constructor call of the own
; class, whose type is `this`
(explicit_constructor_invocation
  constructor: (super) @cc.call.target) @cc.call.node

(explicit_constructor_invocation
  constructor: (this) @cc.call.target) @cc.call.new

; method references: Type::method, this::m, expr::m; Type::new
(method_reference
  . (_) @cc.call.receiver
  (identifier) @cc.call.target .) @cc.call.node

(method_reference
  . [(identifier) (type_identifier) (scoped_type_identifier) (generic_type)] @cc.call.target .) @cc.call.new

; ---- typed bindings
; declared reference types (not primitives, arrays or `var`)
((local_variable_declaration
  type: [(type_identifier) (generic_type) (scoped_type_identifier)] @cc.bind.type
  declarator: (variable_declarator name: (identifier) @cc.bind.name))
  (#not-eq? @cc.bind.type "var"))

; var x = new T();
((local_variable_declaration
  type: (type_identifier) @_var
  declarator: (variable_declarator
    name: (identifier) @cc.bind.name
    value: (object_creation_expression type: (_) @cc.bind.type)))
  (#eq? @_var "var"))

; var x = make();  (unqualified: a local or inherited method)
((local_variable_declaration
  type: (type_identifier) @_var
  declarator: (variable_declarator
    name: (identifier) @cc.bind.name
    value: (method_invocation !object name: (identifier) @cc.bind.call)))
  (#eq? @_var "var"))

; fields: scoped to their class
(field_declaration
  type: [(type_identifier) (generic_type) (scoped_type_identifier)] @cc.bind.type
  declarator: (variable_declarator name: (identifier) @cc.bind.name))

; this.f = new T();
(assignment_expression
  left: (field_access object: (this) field: (identifier)) @cc.bind.name
  right: (object_creation_expression type: (_) @cc.bind.type))

(formal_parameter
  type: [(type_identifier) (generic_type) (scoped_type_identifier)] @cc.bind.type
  name: (identifier) @cc.bind.name)

((enhanced_for_statement
  type: [(type_identifier) (generic_type) (scoped_type_identifier)] @cc.bind.type
  name: (identifier) @cc.bind.name)
  (#not-eq? @cc.bind.type "var"))

((resource
  type: [(type_identifier) (generic_type) (scoped_type_identifier)] @cc.bind.type
  name: (identifier) @cc.bind.name)
  (#not-eq? @cc.bind.type "var"))

(catch_formal_parameter
  (catch_type . (_) @cc.bind.type .)
  name: (identifier) @cc.bind.name)

(instanceof_expression
  right: [(type_identifier) (generic_type) (scoped_type_identifier)] @cc.bind.type
  name: (identifier) @cc.bind.name)
