; Shared by javascript.scm and tsx.scm: JSX component calls.

; <Button />, <Nav.Item> render components; lower-case tags are
; intrinsic elements (div, header), not calls. The tag name is the call node:
; an element node can start on the line before its `<` (the grammar folds
; leading whitespace into it).
(jsx_self_closing_element
  name: (identifier) @cc.call.target @cc.call.node
  (#match? @cc.call.target "^[A-Z]"))

(jsx_opening_element
  name: (identifier) @cc.call.target @cc.call.node
  (#match? @cc.call.target "^[A-Z]"))

(jsx_self_closing_element
  name: (member_expression
    object: (_) @cc.call.receiver
    property: (property_identifier) @cc.call.target) @cc.call.node)

(jsx_opening_element
  name: (member_expression
    object: (_) @cc.call.receiver
    property: (property_identifier) @cc.call.target) @cc.call.node)
