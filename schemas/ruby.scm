; Ruby: classes, modules and methods, require/load, call sites and bindings
; of constructed values.
;
; Class and module names are `Name`, `A::B` (the engine splits the owner off)
; or `::Name` (top-level constant: only the name is captured).
;
; No @cc.def.body: a comment between the head and the first statement would
; end up in the signature, so signatures are the definition's first line
; (`class Cart < Base`, `def add(item)`).

; ---- classes and modules
(class
  name: [
    (constant) @cc.def.class.name
    (scope_resolution scope: (_)) @cc.def.class.name
    (scope_resolution !scope name: (constant) @cc.def.class.name)
  ]) @cc.def.class.node

(class
  name: [
    (constant) @cc.def.class.name
    (scope_resolution scope: (_)) @cc.def.class.name
    (scope_resolution !scope name: (constant) @cc.def.class.name)
  ]
  superclass: (superclass [(constant) (scope_resolution)] @cc.def.base)) @cc.def.class.node

(module
  name: [
    (constant) @cc.def.class.name
    (scope_resolution scope: (_)) @cc.def.class.name
    (scope_resolution !scope name: (constant) @cc.def.class.name)
  ]) @cc.def.class.node

; include M / extend M / prepend M directly in a class or module body
([
  (class
    name: [
      (constant) @cc.def.class.name
      (scope_resolution scope: (_)) @cc.def.class.name
      (scope_resolution !scope name: (constant) @cc.def.class.name)
    ]
    body: (body_statement
      (call
        !receiver
        method: (identifier) @_mixin
        arguments: (argument_list [(constant) (scope_resolution)] @cc.def.base))))
  (module
    name: [
      (constant) @cc.def.class.name
      (scope_resolution scope: (_)) @cc.def.class.name
      (scope_resolution !scope name: (constant) @cc.def.class.name)
    ]
    body: (body_statement
      (call
        !receiver
        method: (identifier) @_mixin
        arguments: (argument_list [(constant) (scope_resolution)] @cc.def.base))))
] @cc.def.class.node
  (#eq? @_mixin "include"))

([
  (class
    name: [
      (constant) @cc.def.class.name
      (scope_resolution scope: (_)) @cc.def.class.name
      (scope_resolution !scope name: (constant) @cc.def.class.name)
    ]
    body: (body_statement
      (call
        !receiver
        method: (identifier) @_mixin
        arguments: (argument_list [(constant) (scope_resolution)] @cc.def.base))))
  (module
    name: [
      (constant) @cc.def.class.name
      (scope_resolution scope: (_)) @cc.def.class.name
      (scope_resolution !scope name: (constant) @cc.def.class.name)
    ]
    body: (body_statement
      (call
        !receiver
        method: (identifier) @_mixin
        arguments: (argument_list [(constant) (scope_resolution)] @cc.def.base))))
] @cc.def.class.node
  (#eq? @_mixin "extend"))

([
  (class
    name: [
      (constant) @cc.def.class.name
      (scope_resolution scope: (_)) @cc.def.class.name
      (scope_resolution !scope name: (constant) @cc.def.class.name)
    ]
    body: (body_statement
      (call
        !receiver
        method: (identifier) @_mixin
        arguments: (argument_list [(constant) (scope_resolution)] @cc.def.base))))
  (module
    name: [
      (constant) @cc.def.class.name
      (scope_resolution scope: (_)) @cc.def.class.name
      (scope_resolution !scope name: (constant) @cc.def.class.name)
    ]
    body: (body_statement
      (call
        !receiver
        method: (identifier) @_mixin
        arguments: (argument_list [(constant) (scope_resolution)] @cc.def.base))))
] @cc.def.class.node
  (#eq? @_mixin "prepend"))

; ---- methods: def m, def self.m, def Const.m (owner Const); methods in
; `class << self` belong to the enclosing class
(method
  name: (_) @cc.def.func.name) @cc.def.func.node

(singleton_method
  name: (_) @cc.def.func.name) @cc.def.func.node

(singleton_method
  object: [(constant) (scope_resolution)] @cc.def.receiver
  name: (_) @cc.def.func.name) @cc.def.func.node

; ---- imports: require 'x', require_relative 'x', load 'x.rb' with one plain
; string argument (interpolated paths are not resolvable)
((call
  !receiver
  method: (identifier) @_req
  arguments: (argument_list . (string . (string_content) .) @cc.import.spec .)) @cc.import.node @cc.import.kind.require_relative
  (#eq? @_req "require_relative"))

((call
  !receiver
  method: (identifier) @_req
  arguments: (argument_list . (string . (string_content) .) @cc.import.spec .)) @cc.import.node @cc.import.kind.require
  (#eq? @_req "require"))

((call
  !receiver
  method: (identifier) @_req
  arguments: (argument_list . (string . (string_content) .) @cc.import.spec .)) @cc.import.node @cc.import.kind.require
  (#eq? @_req "load"))

; ---- calls
; obj.m, self.m, Foo.bar, Mod::Cls.m, obj&.m (X.new is below)
((call
  receiver: (_) @cc.call.receiver
  method: (identifier) @cc.call.target) @cc.call.node
  (#not-eq? @cc.call.target "new"))

; Foo.new, Mod::Cls.new (receiver Mod), ::Top.new: constructor calls
((call
  receiver: [
    (constant) @cc.call.target
    (scope_resolution scope: (_) @cc.call.receiver name: (constant) @cc.call.target)
    (scope_resolution !scope name: (constant) @cc.call.target)
  ]
  method: (identifier) @_new) @cc.call.new
  (#eq? @_new "new"))

; klass.new, self.new: the class is not known from the text
((call
  receiver: [(identifier) (self) (instance_variable) (class_variable) (global_variable) (call)] @cc.call.receiver
  method: (identifier) @cc.call.target) @cc.call.node
  (#eq? @cc.call.target "new"))

; foo(1), foo 1, foo(), foo { }, foo do end: a bare `foo` could be a local
; variable and is left out
(call
  !receiver
  method: (identifier) @cc.call.target
  arguments: (argument_list)) @cc.call.node

(call
  !receiver
  method: (identifier) @cc.call.target
  block: (_)) @cc.call.node

; super / super(x) / x = super(y) in a method: a call of the method's own
; name on `super` (the overridden method). Queries cannot look up the
; enclosing method from any depth: statements up to three levels below the
; method body are covered (a super inside a block is left out).
(method
  name: (_) @cc.call.target
  body: (body_statement (super) @cc.call.receiver @cc.call.node))

(method
  name: (_) @cc.call.target
  body: (body_statement (_ (super) @cc.call.receiver @cc.call.node)))

(method
  name: (_) @cc.call.target
  body: (body_statement (_ (_ (super) @cc.call.receiver @cc.call.node))))

(singleton_method
  name: (_) @cc.call.target
  body: (body_statement (super) @cc.call.receiver @cc.call.node))

(singleton_method
  name: (_) @cc.call.target
  body: (body_statement (_ (super) @cc.call.receiver @cc.call.node)))

(singleton_method
  name: (_) @cc.call.target
  body: (body_statement (_ (_ (super) @cc.call.receiver @cc.call.node))))

; ---- bindings
; x = Foo.new, @repo = Repo.new(...), self.r = Mod::Repo.new, @r ||= Repo.new
((assignment
  left: [(identifier) (instance_variable) (class_variable) (global_variable) (constant) (call receiver: (self))] @cc.bind.name
  right: (call
    receiver: [
      (constant) @cc.bind.type
      (scope_resolution scope: (_)) @cc.bind.type
      (scope_resolution !scope name: (constant) @cc.bind.type)
    ]
    method: (identifier) @_new))
  (#eq? @_new "new"))

((operator_assignment
  left: [(identifier) (instance_variable) (class_variable) (global_variable) (constant) (call receiver: (self))] @cc.bind.name
  right: (call
    receiver: [
      (constant) @cc.bind.type
      (scope_resolution scope: (_)) @cc.bind.type
      (scope_resolution !scope name: (constant) @cc.bind.type)
    ]
    method: (identifier) @_new))
  (#eq? @_new "new"))

; x = make_thing, x = make_thing(1): the result of a method of self
(assignment
  left: [(identifier) (instance_variable) (class_variable) (global_variable) (constant) (call receiver: (self))] @cc.bind.name
  right: (identifier) @cc.bind.call)

(assignment
  left: [(identifier) (instance_variable) (class_variable) (global_variable) (constant) (call receiver: (self))] @cc.bind.name
  right: (call !receiver method: (identifier) @cc.bind.call))

; x = Factory.build (no arguments: the call's text is `Recv.m`)
((assignment
  left: [(identifier) (instance_variable) (class_variable) (global_variable) (constant) (call receiver: (self))] @cc.bind.name
  right: (call
    receiver: [(constant) (scope_resolution) (identifier) (self) (instance_variable)]
    method: (identifier) @_m
    !arguments
    !block) @cc.bind.call)
  (#not-eq? @_m "new"))
