package resolve

// langSpec holds the few facts about a language that call binding needs.
type langSpec struct {
	// self lists receiver names that mean the enclosing class instance.
	self []string
	// ctor is the constructor method name; "=class" means "same as the class".
	ctor string
	// implicitSelf: a bare call inside a class may call its methods.
	implicitSelf bool
	// global: top-level functions of every file share one namespace (C,
	// Ruby, Bash), so a bare name may bind across files.
	global bool
	// memberNameMatch allows weak name-match edges for member calls whose
	// receiver type is unknown. C has no methods: a member call there is a
	// call through a function pointer, never an edge.
	memberNameMatch bool
	// superCtor: a bare `super(...)` call runs the base class constructor
	// (JS, TS, Java). Python's super() only returns a proxy.
	superCtor bool
	// reopen: a class or namespace may be declared in several places that
	// together make one scope (Ruby classes and modules, C++ namespaces).
	reopen bool
	// conversions: calling a type converts a value (Go's T(x)); no code of
	// the type runs, so it is no call edge.
	conversions bool
}

var langSpecs = map[string]*langSpec{
	"python":     {self: []string{"self", "cls"}, ctor: "__init__", memberNameMatch: true},
	"javascript": {self: []string{"this"}, ctor: "constructor", memberNameMatch: true, superCtor: true},
	"typescript": {self: []string{"this"}, ctor: "constructor", memberNameMatch: true, superCtor: true},
	"tsx":        {self: []string{"this"}, ctor: "constructor", memberNameMatch: true, superCtor: true},
	"go":         {conversions: true, memberNameMatch: true},
	"rust":       {self: []string{"self", "Self"}, memberNameMatch: true},
	"java":       {self: []string{"this"}, ctor: "=class", implicitSelf: true, memberNameMatch: true, superCtor: true},
	"ruby":       {self: []string{"self"}, ctor: "initialize", implicitSelf: true, global: true, memberNameMatch: true, reopen: true},
	"c":          {global: true},
	"cpp":        {self: []string{"this"}, ctor: "=class", implicitSelf: true, global: true, memberNameMatch: true, reopen: true},
	"bash":       {}, // sourced files are wildcard imports; no global namespace
}

var defaultSpec = &langSpec{}

func specFor(lang string) *langSpec {
	if s := langSpecs[lang]; s != nil {
		return s
	}
	return defaultSpec
}

func (s *langSpec) isSelf(name string) bool {
	for _, x := range s.self {
		if x == name {
			return true
		}
	}
	return false
}

// commonMethods are method names too generic for a name-only match to mean
// anything: a unique definition named "get" in the workspace says nothing
// about which "get" a call on an unknown receiver reaches.
var commonMethods = setOf(
	"get", "set", "put", "add", "remove", "delete", "pop", "push", "append", "extend", "insert", "clear",
	"update", "run", "start", "stop", "close", "open", "read", "write", "flush", "send", "recv", "call",
	"apply", "bind", "map", "filter", "reduce", "find", "index", "keys", "values", "items", "copy",
	"join", "split", "strip", "format", "replace", "lower", "upper", "encode", "decode", "parse", "load",
	"dump", "dumps", "loads", "save", "init", "new", "next", "len", "size", "length", "count", "sort",
	"reverse", "equals", "hashCode", "toString", "valueOf", "then", "catch", "finally", "emit", "on",
	"off", "once", "log", "debug", "info", "warn", "warning", "error", "fatal", "print", "printf",
	"String", "Error", "Close", "Read", "Write", "Len", "Less", "Swap", "Get", "Set", "Add", "Run",
	"Lock", "Unlock", "RLock", "RUnlock", "Wait", "Done", "Do", "Reset", "Next", "Value", "Err",
	"clone", "unwrap", "expect", "iter", "into", "from", "to_string", "as_str", "as_ref", "fmt",
	"each", "to_s", "to_a", "to_h", "inspect", "hash", "test", "check", "validate", "handle", "process",
	"execute", "render", "setup", "teardown", "__init__", "__call__", "__enter__", "__exit__", "__iter__", "__next__", "__aenter__", "__aexit__", "__aiter__", "__anext__",
	"constructor", "initialize", "main",
)

func setOf(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}
