package compiler

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"tilefuse/deps"
	"tilefuse/frontend/cparse"
)

// TestInitialized: a temporary whose every read has a write before it
// needs no zeroing; one read before it is written (an accumulator) does.
func TestInitialized(t *testing.T) {
	const src = `void f(int n, float in[n], float out[n]) {
  float a[n];
  float acc[n];
  for (int i = 0; i < n; i++)
    a[i] = 2 * in[i];
  for (int i = 0; i < n; i++)
    acc[i] = acc[i] + a[i];
  for (int i = 0; i < n; i++)
    out[i] = acc[i];
}`
	p, err := cparse.ParseFunc("f.c", []byte(src), "f")
	if err != nil {
		t.Fatal(err)
	}
	flow, err := deps.Dataflow(p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]bool{"a": true}, initialized(p, flow)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
