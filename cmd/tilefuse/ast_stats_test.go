package main

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/tilefuse/tilefuse/inline"
	"github.com/tilefuse/tilefuse/polymage"
)

// TestASTStats checks --stats against counts known in closed form: gemm's
// statements run ni*nj and ni*nj*nk times (S1 loads C, alpha, A and B and
// stores C), and the tutorial's producer computes sin once per point of
// its (R+1) x (C+1) domain, under every fusion heuristic.
func TestASTStats(t *testing.T) {
	for _, c := range []struct {
		args []string
		want map[string]int64 // regexp capture -> count
	}{
		{[]string{"ast", "--stats", "--size", "ni=3,nj=4,nk=5", "polybench/gemm"},
			map[string]int64{`S0 +(\d+)`: 12, `S1 +(\d+)`: 60, `S1 +\d+ +(\d+)`: 240, `total +\d+ +\d+ +(\d+)`: 72}},
		{[]string{"ast", "--stats", "--fuse", "none", "--size", "R=4,C=6", "pipelines/producer_consumer"},
			map[string]int64{`calls to sin: (\d+)`: 35, `producer_s0 +(\d+)`: 35, `consumer_s0 +(\d+)`: 24}},
		{[]string{"ast", "--stats", "--fuse", "max", "--tile", "2", "--size", "R=4,C=6", "pipelines/producer_consumer"},
			map[string]int64{`calls to sin: (\d+)`: 35, `consumer_s0 +\d+ +(\d+)`: 96}},
	} {
		out, errOut, status := runCmd("", c.args...)
		if status != 0 {
			t.Fatalf("%v: status %d: %s", c.args, status, errOut)
		}
		for re, want := range c.want {
			m := regexp.MustCompile(re).FindStringSubmatch(out)
			if m == nil {
				t.Errorf("%v: no %q in\n%s", c.args, re, out)
				continue
			}
			if got, _ := strconv.ParseInt(m[1], 10, 64); got != want {
				t.Errorf("%v: %q = %d, want %d\n%s", c.args, re, got, want, out)
			}
		}
	}
	for _, args := range [][]string{
		{"ast", "--size", "ni=3", "polybench/gemm"},
		{"ast", "--stats", "--size", "zz=3", "polybench/gemm"},
		{"ast", "--stats", "--tree", "testdata/ast/tiled.yaml"},
	} {
		if _, errOut, status := runCmd("", args...); status != 2 || errOut == "" {
			t.Errorf("%v: status %d, stderr %q; want 2 and a message", args, status, errOut)
		}
	}
}

// TestASTStatsPostMemory: under post-tiling fusion, only the inputs and
// the outputs of Harris and unsharp mask touch global memory; every
// intermediate array lives in tile-local buffers or was inlined (it is
// then never accessed).
func TestASTStatsPostMemory(t *testing.T) {
	for _, name := range []string{"harris", "unsharp_mask"} {
		out, errOut, status := runCmd("", "ast", "--stats", "--fuse", "post", "--tile", "8,16", "--size", "R=24,C=40", "polymage/"+name)
		if status != 0 {
			t.Fatalf("%s: status %d: %s", name, status, errOut)
		}
		en, _ := polymage.Lookup(name)
		p, err := en.Build()
		if err != nil {
			t.Fatal(err)
		}
		q, _, err := inline.Program(p, inline.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range p.Arrays {
			m := regexp.MustCompile(`(?m)^ *` + a.Name + ` +\d+ +\d+ +(\S+)$`).FindStringSubmatch(out)
			want := "tile-local"
			if a.LiveIn || a.LiveOut {
				want = "global"
			}
			if q.Array(a.Name) == nil {
				if m != nil {
					t.Errorf("%s: inlined array %s is accessed: %v\n%s", name, a.Name, m, out)
				}
				continue
			}
			if m == nil || m[1] != want {
				t.Errorf("%s: array %s: %v, want %s\n%s", name, a.Name, m, want, out)
			}
		}
		if !regexp.MustCompile(`ratio`).MatchString(out) {
			t.Errorf("%s: no recomputation ratio in\n%s", name, out)
		}
	}
}
