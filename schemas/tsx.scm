; inherits: ts-common, jsx
; TSX (.tsx): the shared TypeScript schema plus JSX component calls.
