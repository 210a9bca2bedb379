package charness

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/scop"
)

const copySrc = `void copy(int n, float a[n], float b[n]) {
  for (int i = 0; i < n; i++)
    b[i] = a[i];
}`

// TestEncodeDecode checks that the harness format round-trips through
// EncodeTo and DecodeFrom, that Arguments allocates the arguments alone
// with Inputs' contents, and that short or long files are refused.
func TestEncodeDecode(t *testing.T) {
	p, err := cparse.ParseFunc("copy.c", []byte(copySrc), "copy")
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"n": 5}
	all, err := Inputs(p, params)
	if err != nil {
		t.Fatal(err)
	}
	args, err := Arguments(p, params, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(all, args); diff != "" {
		t.Errorf("Arguments differ from Inputs (-Inputs +Arguments):\n%s", diff)
	}
	var w bytes.Buffer
	if err := EncodeTo(&w, p, args); err != nil {
		t.Fatal(err)
	}
	data := w.Bytes()
	if len(data) != 2*5*4 {
		t.Fatalf("encoded %d bytes, want 40", len(data))
	}
	got, err := DecodeFrom(bytes.NewReader(data), p, args)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(args, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"short", data[:len(data)-1], "too short at array b"},
		{"long", append(bytes.Clone(data), 0, 0), "2 extra bytes"},
	} {
		if _, err := Decode(p, args, tc.data); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	given := map[string]*scop.Buffer{"a": all["b"]}
	args, err = Arguments(p, params, given)
	if err != nil || args["a"] != given["a"] {
		t.Errorf("Arguments does not use the given input a: %v", err)
	}
}
