package store

import (
	"reflect"
	"testing"

	"github.com/ccd-dev/ccd/core/facts"
)

// fill sets every field reachable from v to a distinct non-zero value,
// filling slices with two elements, so a field the codec forgets shows up.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + string(rune('a'+*n%26)))
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Uint8:
		v.SetUint(uint64(*n%2 + 1))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := 0; i < 2; i++ {
			fill(s.Index(i), n)
		}
		v.Set(s)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			fill(v.Field(i), n)
		}
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), n)
		v.Set(p)
	default:
		panic("fill: unhandled kind " + v.Kind().String() + ": extend the codec and this test")
	}
}

func TestCodecCoversEveryField(t *testing.T) {
	var r Record
	n := 0
	fill(reflect.ValueOf(&r).Elem(), &n)
	b := encodeRecord(nil, r)
	got, err := decodeRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Fatalf("round trip lost data:\n got %+v\nwant %+v", got.Facts, r.Facts)
	}
	// Every truncation is an error, never a panic or a partial record.
	for i := 0; i < len(b); i++ {
		if _, err := decodeRecord(b[:i]); err == nil {
			t.Fatalf("truncated record of %d/%d bytes decoded without error", i, len(b))
		}
	}
}

func TestCodecEmptySlicesStayNil(t *testing.T) {
	r := Record{Facts: &facts.File{Path: "a.go", Lang: "go"}, Size: 1}
	got, err := decodeRecord(encodeRecord(nil, r))
	if err != nil || !reflect.DeepEqual(got, r) {
		t.Fatalf("%+v %v", got.Facts, err)
	}
}
