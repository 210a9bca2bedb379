package scheduletree_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tilefuse/tilefuse/scheduletree"
)

// The fuzz targets of the tree readers (issue 17 item 6): no input makes
// Unmarshal or UnmarshalYAML panic or run for long, and a tree that
// reads writes in both forms, each writing reading back to an equal
// tree.
//
//	go test -run '^$' -fuzz FuzzUnmarshalJSON -fuzztime 30s -parallel 1 ./scheduletree
//	go test -run '^$' -fuzz FuzzUnmarshalYAML -fuzztime 30s -parallel 1 ./scheduletree
//
// Crashers found are kept in testdata/fuzz/<target>, which go test runs
// as seeds.

// maxFuzzInput bounds the inputs: the readers' sets and maps go to
// presburger, whose operations on long texts are slow, not wrong.
const maxFuzzInput = 2048

// fuzzDeadline bounds one input: reading, writing and comparing a tree
// of at most maxFuzzInput bytes takes milliseconds; longer is a stage
// without a bound (issue 17 item 2).
const fuzzDeadline = 10 * time.Second

// seeds adds the files of testdata with the extension ext.
func seeds(f *testing.F, ext string) {
	names, err := filepath.Glob(filepath.Join("testdata", "*."+ext))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

func FuzzUnmarshalJSON(f *testing.F) {
	seeds(f, "json")
	f.Add([]byte(`{"kind": "domain", "domain": "{ S[i] : 0 <= i < 4 }"}`))
	f.Add([]byte(`{"kind": "domain", "domain": "[N] -> { S[i] : 0 <= i < N }", "child": {"kind": "band", "schedule": "[N] -> { S[i] -> [i] }", "permutable": true, "coincident": [true]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		bounded(t, data, scheduletree.Unmarshal)
	})
}

func FuzzUnmarshalYAML(f *testing.F) {
	seeds(f, "yaml")
	f.Add([]byte(`domain: "{ S[i] : 0 <= i < 4 }"`))
	f.Add([]byte("{ domain: \"[N] -> { S[i] : 0 <= i < N }\", child: { schedule: \"[N] -> [{ S[i] -> [(i)] }]\", permutable: 1, coincident: [ 1 ] } }"))
	f.Add([]byte("domain: \"{ S[i] : 0 <= i < 4; T[i] : 0 <= i < 4 }\"\nchild:\n  sequence:\n  - filter: \"{ S[i] }\"\n  - filter: \"{ T[i] }\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		bounded(t, data, scheduletree.UnmarshalYAML)
	})
}

// bounded reads data with read and checks the round trips, failing when
// that takes longer than fuzzDeadline (the goroutine is left running:
// the test fails anyway). A panic fails the fuzz target as it is.
func bounded(t *testing.T, data []byte, read func([]byte) (scheduletree.Tree, error)) {
	t.Helper()
	if len(data) > maxFuzzInput {
		return
	}
	done := make(chan error, 1)
	go func() {
		tr, err := read(data)
		if err != nil {
			done <- nil
			return
		}
		done <- roundTrips(tr)
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%v\ninput: %q", err, data)
		}
	case <-time.After(fuzzDeadline):
		t.Fatalf("reading and writing back took more than %v:\ninput: %q", fuzzDeadline, data)
	}
}

// roundTrips writes tr as JSON and as YAML and checks that each reads
// back to a tree equal to tr.
func roundTrips(tr scheduletree.Tree) error {
	js, err := scheduletree.Marshal(tr)
	if err != nil {
		return fmt.Errorf("a tree that reads does not write as JSON: %v", err)
	}
	back, err := scheduletree.Unmarshal(js)
	if err != nil {
		return fmt.Errorf("the JSON written does not read back: %v\n%s", err, js)
	}
	if eq, err := tr.Equal(back); err != nil || !eq {
		return fmt.Errorf("the JSON written reads back to another tree (%v):\n%s", err, js)
	}
	ym, err := scheduletree.MarshalYAML(tr)
	if err != nil {
		return fmt.Errorf("a tree that reads does not write as YAML: %v", err)
	}
	back, err = scheduletree.UnmarshalYAML(ym)
	if err != nil {
		return fmt.Errorf("the YAML written does not read back: %v\n%s", err, ym)
	}
	if eq, err := tr.Equal(back); err != nil || !eq {
		return fmt.Errorf("the YAML written reads back to another tree (%v):\n%s", err, ym)
	}
	return nil
}
