; inherits: ts-common
; TypeScript (.ts .mts .cts): the shared schema plus the `<T>x` type
; assertion, which the TSX grammar reads as JSX.

; const x = <T>y
(variable_declarator
  name: (identifier) @cc.bind.name
  !type
  value: (type_assertion (type_arguments . [(type_identifier) (nested_type_identifier) (generic_type)] @cc.bind.type .)))
