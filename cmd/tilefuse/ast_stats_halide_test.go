package main

import (
	"strings"
	"testing"
)

// TestASTStatsHalideCounts checks the lines of Halide's counts: the
// producer (5 x 7 f32) is a temporary in memory; fused, each consumer
// point reads the producer value stored just before it.
func TestASTStatsHalideCounts(t *testing.T) {
	for _, c := range []struct {
		fuse      string
		want, not []string
	}{
		{"none", []string{"temporary memory: peak 140 bytes\n"}, []string{"loads served"}},
		{"max", []string{"loads served by the store just before: 24 (Halide's count of loads: 72)\ntemporary memory: peak 140 bytes\n"}, nil},
	} {
		args := []string{"ast", "--stats", "--fuse", c.fuse, "--size", "R=4,C=6", "pipelines/producer_consumer"}
		out, errOut, status := runCmd("", args...)
		if status != 0 {
			t.Fatalf("%v: status %d: %s", args, status, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: no %q in\n%s", args, w, out)
			}
		}
		for _, w := range c.not {
			if strings.Contains(out, w) {
				t.Errorf("%v: %q in\n%s", args, w, out)
			}
		}
	}
}
