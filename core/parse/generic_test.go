package parse

import (
	"strings"
	"testing"
)

// TestGenericDefinitions checks tier 2: grammars without a schema still
// yield classes and functions, classified by node type, with nesting.
func TestGenericDefinitions(t *testing.T) {
	cases := []struct {
		lang, path, src string
		want            []string
	}{
		{"csharp", "A.cs", "namespace N { class Shop { void Add() {} int Total() { return 0; } } }\n",
			[]string{"def class Shop", "def func Shop.Add", "def func Shop.Total"}},
		{"lua", "a.lua", "function greet(name)\n  return name\nend\n",
			[]string{"def func greet"}},
		{"php", "a.php", "<?php\nclass Cart {\n  function add($x) { return $x; }\n}\nfunction helper() {}\n",
			[]string{"def class Cart", "def func Cart.add", "def func helper"}},
		{"scala", "a.scala", "object Main {\n  def run(): Unit = {}\n}\nclass Box {\n  def open(): Int = 1\n}\n",
			[]string{"def class Main", "def func Main.run", "def class Box", "def func Box.open"}},
		{"swift", "a.swift", "class Door {\n  func open() {}\n}\n",
			[]string{"def class Door", "def func Door.open"}},
		// The protobuf grammar has no name fields, so the generic query finds
		// nothing: its files are counted, with no definitions.
		{"protobuf", "a.proto", "syntax = \"proto3\";\nmessage Order { int32 id = 1; }\n", nil},
	}
	r, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if r.Tier(c.lang) != 2 {
			t.Fatalf("%s is not a tier 2 language", c.lang)
		}
		f := parseSrc(t, c.lang, c.path, c.src)
		got := strings.Join(describe(f), "\n")
		for _, w := range c.want {
			if !strings.Contains(got, w+" ") {
				t.Errorf("%s: missing %q in\n%s", c.lang, w, got)
			}
		}
		if len(f.Calls)+len(f.Imports) != 0 {
			t.Errorf("%s: tier 2 must not invent calls or imports: %v %v", c.lang, f.Calls, f.Imports)
		}
	}
}
