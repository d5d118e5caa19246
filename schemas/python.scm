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
(assignment
  left: [(identifier) (attribute)] @cc.bind.name
  right: (call function: [(identifier) (attribute)] @cc.bind.call))
; a name or attribute assigned another one: `a = f`, `self.context_class =
; Context` (functions and classes used as values)
(assignment
  left: [(identifier) (attribute)] @cc.bind.name
  right: [(identifier) (attribute)] @cc.bind.value)

; ---- function values: names in value positions (arguments, keyword
; values, right-hand sides, returned values, container elements); the
; extractor keeps those that may name a function and the resolver makes
; reference edges (sorted(xs, key=_safe_key), handlers = {'a': on_a})
(argument_list [(identifier) (attribute)] @cc.value.ref)
(keyword_argument value: [(identifier) (attribute)] @cc.value.ref)
(assignment right: [(identifier) (attribute)] @cc.value.ref)
(return_statement [(identifier) (attribute)] @cc.value.ref)
(pair value: [(identifier) (attribute)] @cc.value.ref)
(list [(identifier) (attribute)] @cc.value.ref)
(tuple [(identifier) (attribute)] @cc.value.ref)

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
