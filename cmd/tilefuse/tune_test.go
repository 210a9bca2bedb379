package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/tiling/tune"
)

// TestTune tunes a small harris, checks the record it saves and that
// compile --tile tuned takes its sizes; before the tuning, --tile tuned
// is a usage error naming the command to run.
func TestTune(t *testing.T) {
	needToolchain(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("OMP_NUM_THREADS", "2")
	out := filepath.Join(t.TempDir(), "harris")
	_, stderr, status := runCmd("", "compile", "--fuse", "post", "--tile", "tuned", "-o", out, "polymage/harris")
	if status != exitUsage || !strings.Contains(stderr, "is not tuned") || !strings.Contains(stderr, "tilefuse tune polymage/harris") {
		t.Fatalf("compile --tile tuned before tune: status %d, stderr %q", status, stderr)
	}
	stdout, stderr, status := runCmd("", "tune", "--size", "R=40,C=72", "--threads", "2", "--top", "3", "--repeat", "1", "--format", "json", "polymage/harris")
	if status != exitOK {
		t.Fatalf("tune: status %d, stderr %q\nstdout:\n%s", status, stderr, stdout)
	}
	var rec tune.Record
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatalf("tune --format json: %v\n%s", err, stdout)
	}
	ran := 0
	for _, tr := range rec.Trials {
		if tr.Err != "" {
			t.Errorf("trial %v failed: %s", tr.Sizes, tr.Err)
		}
		if tr.Median > 0 {
			ran++
		}
	}
	if ran != 3 || len(rec.Trials) != 49 {
		t.Errorf("%d of %d trials ran, want 3 of 49", ran, len(rec.Trials))
	}
	i := slices.IndexFunc(rec.Trials, func(tr tune.Trial) bool { return slices.Equal(tr.Sizes, rec.Best) })
	if i < 0 || !rec.Trials[i].Final {
		t.Errorf("best %v is not a finalist: %+v", rec.Best, rec.Trials)
	}
	if rec.Trials[0].Rank != 1 || !slices.Equal(rec.Model, rec.Trials[0].Sizes) {
		t.Errorf("the model's pick %v is not the first-ranked trial %+v", rec.Model, rec.Trials[0])
	}
	if _, stderr, status = runCmd("", "compile", "--fuse", "post", "--tile", "tuned", "-o", out, "polymage/harris"); status != exitOK {
		t.Fatalf("compile --tile tuned after tune: status %d, stderr %q", status, stderr)
	}
	// bench --tile tuned finds the record too; an untuned pipeline gets
	// the defaults and a note.
	stdout, stderr, status = runCmd("", "bench", "--limit=false", "polymage", "--only", "harris,unsharp_mask", "--size", "R=40,C=72", "--threads", "2",
		"--strategies", "post", "--peers", "", "--repeat", "1", "--tile", "tuned")
	if status != exitOK || strings.Contains(stderr, "harris: not tuned") || !strings.Contains(stderr, "unsharp_mask: not tuned") {
		t.Errorf("bench --tile tuned: status %d, stderr %q\nstdout:\n%s", status, stderr, stdout)
	}
	ir, err := os.ReadFile(out + ".ll")
	if err != nil {
		t.Fatal(err)
	}
	// The tile loops step by the tuned sizes' tiles: the tile-local
	// buffers are the tile plus the stencil's border of 2 on each side.
	want := "alloca [" + itoa((rec.Best[0]+2)*(rec.Best[1]+2)) + " x float]"
	if !strings.Contains(string(ir), want) {
		t.Errorf("the IR compiled with --tile tuned (%v) has no buffer of %s", rec.Best, want)
	}
}

// TestTuneErrors are the usage errors of tune.
func TestTuneErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "--fuse", "min", "polymage/harris"}, "tune --fuse post"},
		{[]string{"tune", "--tile", "8", "polymage/harris"}, "--tile is what tune chooses"},
		{[]string{"tune", "--target", "cuda", "polymage/harris"}, "tunes CPU code"},
		{[]string{"tune", "--top", "-1", "polymage/harris"}, "--top must not be negative"},
		{[]string{"tune", "polymage/nope"}, "nope"},
		{[]string{"tune"}, "want one SOURCE"},
		{[]string{"compile", "--fuse", "min", "--tile", "tuned", "-o", "x", "polymage/harris"}, "tune sizes the tiles of --fuse post"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, stderr, status := runCmd("", tc.args...)
			if status != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("status %d, stderr %q; want %d and %q", status, stderr, exitUsage, tc.want)
			}
		})
	}
}

func itoa(v int64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestCalibrate runs a reduced calibration (smaller images, three sizes)
// and checks that tune then ranks with the calibrated constants.
func TestCalibrate(t *testing.T) {
	needToolchain(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	sizes, params := calibrationSizes, calibrationParams
	calibrationSizes, calibrationParams = [][]int64{{8, 8}, {8, 256}, {64, 64}}, map[string]int64{"R": 512, "C": 512}
	defer func() { calibrationSizes, calibrationParams = sizes, params }()
	// A program tuned first: its trials join the calibration's samples.
	if _, stderr, status := runCmd("", "tune", "--size", "R=40,C=72", "--threads", "2", "--top", "3", "--repeat", "1", "polymage/unsharp_mask"); status != exitOK {
		t.Fatalf("tune unsharp_mask: status %d, stderr %q", status, stderr)
	}
	stdout, stderr, status := runCmd("", "tune", "--calibrate", "--threads", "2")
	if status == exitCheck && strings.Contains(stderr, "the times do not grow with the work: nothing saved") {
		t.Skipf("the machine's noise hides the work's (a loaded machine): %s", stderr)
	}
	if status != exitOK || !strings.Contains(stdout, "median error of the model's times") {
		t.Fatalf("tune --calibrate: status %d, stderr %q\nstdout:\n%s", status, stderr, stdout)
	}
	if !strings.Contains(stdout, "trials of the programs tuned on this machine, at their own sizes (polymage/unsharp_mask)") {
		t.Errorf("tune --calibrate did not fit the tuned program's trials:\n%s", stdout)
	}
	stdout, stderr, status = runCmd("", "tune", "--size", "R=40,C=72", "--threads", "2", "--top", "1", "--repeat", "1", "polymage/harris")
	if status != exitOK || !strings.Contains(stdout, "model: this machine's calibrated constants") {
		t.Errorf("tune after --calibrate: status %d, stderr %q\nstdout:\n%s", status, stderr, stdout)
	}
	if _, stderr, status = runCmd("", "tune", "--calibrate", "polymage/harris"); status != exitUsage || !strings.Contains(stderr, "takes no SOURCE") {
		t.Errorf("tune --calibrate SOURCE: status %d, stderr %q", status, stderr)
	}
}
