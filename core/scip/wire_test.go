package scip

import (
	"reflect"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

func TestMarshalRoundTrip(t *testing.T) {
	x := &Index{
		Metadata: Metadata{ToolName: "t", ToolVersion: "1", ProjectRoot: "file:///w/", UTF8: true},
		Documents: []Document{{
			Language: "go", RelativePath: "a/b.go", PositionEncoding: 1,
			Occurrences: []Occurrence{
				{Range: []int32{3, 5, 8}, Symbol: "s a/`b.go`/F().", Roles: RoleDefinition, EnclosingRange: []int32{3, 0, 9, 1}},
				{Range: []int32{12, 1, 13, 4}, Symbol: "local 4"},
			},
			Symbols: []SymbolInformation{{Symbol: "s a/`b.go`/F().", Kind: KindFunction, DisplayName: "F",
				Documentation: []string{"doc"}, Relationships: []Relationship{{Symbol: "s I#F().", IsImplementation: true}}}},
		}},
		External: []SymbolInformation{{Symbol: "ext . . . x.", Kind: KindMethod}},
	}
	got, err := Unmarshal(x.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, x) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, x)
	}
}

// TestUnmarshalUnpackedAndUnknown reads ranges written unpacked and skips
// fields it does not know, as protobuf readers must.
func TestUnmarshalUnpackedAndUnknown(t *testing.T) {
	var occ []byte
	for _, v := range []uint64{1, 2, 3} {
		occ = protowire.AppendTag(occ, 1, protowire.VarintType)
		occ = protowire.AppendVarint(occ, v)
	}
	occ = protowire.AppendTag(occ, 5, protowire.VarintType) // syntax_kind
	occ = protowire.AppendVarint(occ, 6)
	occ = protowire.AppendTag(occ, 99, protowire.Fixed32Type)
	occ = protowire.AppendFixed32(occ, 7)
	var doc []byte
	doc = appendString(doc, 1, "x.py")
	doc = appendMsg(doc, 2, occ)
	doc = appendString(doc, 5, "text is skipped")
	b := appendMsg(nil, 2, doc)
	x, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Documents) != 1 || !reflect.DeepEqual(x.Documents[0].Occurrences[0].Range, []int32{1, 2, 3}) {
		t.Errorf("got %+v", x.Documents)
	}
}

func TestUnmarshalRejectsGarbage(t *testing.T) {
	for _, b := range [][]byte{{0x12, 0x05, 0x01}, {0xff}, {0x12, 0x02, 0x0a, 0x09}} {
		if _, err := Unmarshal(b); err == nil {
			t.Errorf("Unmarshal(%x) = nil error", b)
		}
	}
}

func TestIdent(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Foo", "Foo"}, {"a_b-c$+1", "a_b-c$+1"}, {"main.go", "`main.go`"}, {"fn@3", "`fn@3`"}, {"a`b", "`a``b`"}, {"", "``"}, {"é", "`é`"},
	} {
		if got := ident(tc.in); got != tc.want {
			t.Errorf("ident(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
