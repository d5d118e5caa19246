; Bash: functions, sourced files and commands.

; ---- functions: f() { ... }, function f { ... }, function f() ( ... )
(function_definition
  name: (word) @cc.def.func.name
  body: (_) @cc.def.body) @cc.def.func.node

; ---- imports: source FILE / . FILE (the first argument as written; the
; engine strips one layer of quotes, `$DIR/` prefixes are kept)
((command
  name: (command_name (word) @_source)
  .
  argument: (_) @cc.import.spec) @cc.import.node @cc.import.kind.source
  (#eq? @_source "source"))

((command
  name: (command_name (word) @_source)
  .
  argument: (_) @cc.import.spec) @cc.import.node @cc.import.kind.source
  (#eq? @_source "."))

; ---- calls: every command with a literal name (functions, builtins and
; external programs alike; `$cmd args` is left out)
(command
  name: (command_name (word) @cc.call.target)) @cc.call.node
