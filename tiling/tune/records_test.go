package tune_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tilefuse/tilefuse/tiling/tune"
)

// recordsMachine is the machine testdata/records were tuned on (a 2-core
// AMD EPYC VM, 2 threads).
var recordsMachine = tune.Machine{L1: 32 << 10, L2: 512 << 10, L3: 8 << 20, Threads: 2}

// TestRecords: Records reads the records of one machine and skips other
// files and machines.
func TestRecords(t *testing.T) {
	recs, err := tune.Records("testdata/records", recordsMachine)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.Source)
	}
	if want := []string{"polymage/harris", "polymage/unsharp_mask"}; !slices.Equal(got, want) {
		t.Errorf("records %v, want %v", got, want)
	}
	other := recordsMachine
	other.Threads = 4
	if recs, err := tune.Records("testdata/records", other); err != nil || len(recs) != 0 {
		t.Errorf("another machine: %d records, %v", len(recs), err)
	}
}

// TestFitFromRecords: fitted on the measured trials of one tuned pipeline
// at its own sizes, the model's first pick for the other pipeline is
// within 5% of the other's measured best (leave one out; the 1024 x 1024
// micro-benchmark alone picked sizes 14-16% slower on these machines).
func TestFitFromRecords(t *testing.T) {
	recs, err := tune.Records("testdata/records", recordsMachine)
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	shapes := make([]tune.Shape, len(recs))
	for i, r := range recs {
		res, params := fuse(t, strings.TrimPrefix(r.Source, "polymage/"), nil)
		if !maps.Equal(params, r.Params) {
			t.Fatalf("%s: tuned at %v, the pipeline's sizes are %v", r.Source, r.Params, params)
		}
		if shapes[i], err = tune.ShapeOf(res.Fusion, res.Program, params); err != nil {
			t.Fatal(err)
		}
	}
	for train := range recs {
		test := 1 - train
		var samples []tune.Sample
		for _, tr := range recs[train].Trials {
			if tr.Median > 0 {
				samples = append(samples, tune.Sample{Features: tune.Features(shapes[train], recordsMachine, tr.Sizes).Features, Seconds: tr.Median.Seconds()})
			}
		}
		costs, _, err := tune.Fit(samples, tune.DefaultCosts)
		if err != nil {
			t.Fatal(err)
		}
		var cands [][]int64
		best := time.Duration(1 << 62)
		median := map[string]time.Duration{}
		for _, tr := range recs[test].Trials {
			if tr.Median > 0 {
				cands = append(cands, tr.Sizes)
				best = min(best, tr.Median)
				median[fmt.Sprint(tr.Sizes)] = tr.Median
			}
		}
		pick := tune.Rank(costs, shapes[test], recordsMachine, cands)[0]
		if got := median[fmt.Sprint(pick.Sizes)]; float64(got) > 1.05*float64(best) {
			t.Errorf("fitted on %s: the pick for %s, %v, runs %v, the best %v", recs[train].Source, recs[test].Source, pick.Sizes, got, best)
		}
	}
}
