package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExplain: explain's decisions and counts on the fusion package's
// small programs, in text and JSON, and its usage errors.
func TestExplain(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		// want are lines of stdout (text) or stderr (errors).
		want []string
	}{
		{"inlined", []string{"--tile", "8", "--size", "n=100", "../../fusion/testdata/chain.c"}, exitOK, []string{
			"../../fusion/testdata/chain.c n=100: post-tiling fusion, tiles 8, m = 1 parallel tile dimension, recomputation bound 1.5x",
			// a costs two additions, read at three points: 6 operations.
			"inlined S0 (a) into S1",
			"space 0 (S1), intermediate: fused into the tiles of space 1 (S2); 126 instances executed for 102 (overlap 1.235x)",
			"space 1 (S2), live-out: tiled, with 1 space fused into its tiles; not fused: its values live after the program",
		}},
		{"chain", []string{"--inline=false", "--tile", "8", "--size", "n=100", "../../fusion/testdata/chain.c"}, exitOK, []string{
			"../../fusion/testdata/chain.c n=100: post-tiling fusion, tiles 8, m = 1 parallel tile dimension, recomputation bound 1.5x",
			// Per tile of 8: 12 instances of S0 and 10 of S1 (13 tiles).
			"space 0 (S0), intermediate: fused into the tiles of space 2 (S2); 152 instances executed for 104 (overlap 1.462x)",
			"space 1 (S1), intermediate: fused into the tiles of space 2 (S2); 126 instances executed for 102 (overlap 1.235x)",
			"space 2 (S2), live-out: tiled, with 2 spaces fused into its tiles; not fused: its values live after the program",
		}},
		{"bound", []string{"--inline=false", "--tile", "4", "--size", "n=100", "../../fusion/testdata/upsample.c"}, exitOK, []string{
			"../../fusion/testdata/upsample.c n=100: post-tiling fusion, tiles 4, m = 1 parallel tile dimension, recomputation bound 1.5x",
			"space 0 (S0), intermediate: tiled, with 0 spaces fused into its tiles; not fused: the tiles of space 1 would compute its instances 2.0 times (estimated; the limit is 1.5)",
			"space 1 (S1), live-out: tiled, with 0 spaces fused into its tiles; not fused: its values live after the program",
		}},
		{"no bound", []string{"--inline=false", "--tile", "4", "--max-recompute", "0", "--size", "n=100", "../../fusion/testdata/upsample.c"}, exitOK, []string{
			"../../fusion/testdata/upsample.c n=100: post-tiling fusion, tiles 4, m = 1 parallel tile dimension, no recomputation bound",
			"space 0 (S0), intermediate: fused into the tiles of space 1 (S1); 200 instances executed for 101 (overlap 1.980x)",
			"space 1 (S1), live-out: tiled, with 1 space fused into its tiles; not fused: its values live after the program",
		}},
		{"taller", []string{"polymage/producer_consumer"}, exitOK, []string{
			"polymage/producer_consumer R=1024 C=1024: post-tiling fusion, tiles default (64,1024 for the innermost members; further out, a constant extent up to 8 whole, others 1), m = 1 parallel tile dimension, recomputation bound 1.5x",
			"taller tiles: space 0 (producer_s0) calls the C library and 16 rows would compute its instances 1.06 times",
			"space 0 (producer_s0), intermediate: fused into the tiles of space 1 (consumer_s0); 1066000 instances executed for 1050625 (overlap 1.015x)",
			"space 1 (consumer_s0), live-out: tiled, with 1 space fused into its tiles; not fused: its values live after the program",
		}},
		{"narrower", []string{"polymage/harris"}, exitOK, []string{
			"polymage/harris R=6400 C=6400: post-tiling fusion, tiles default (16,256 for the innermost members; further out, a constant extent up to 8 whole, others 1), m = 1 parallel tile dimension, recomputation bound 1.5x",
			"narrower tiles: the tiles of space 2 compute 174 operations a point and their buffers take 147744 bytes at 1024 columns, 37152 at 256: within the L1 data cache (49152)",
			"inlined Ixx_s0 (Ixx) into Sxx_s0",
			"inlined Iyy_s0 (Iyy) into Syy_s0",
			"inlined Ixy_s0 (Ixy) into Sxy_s0",
			"inlined Sxy_s0 (Sxy) into det_s0",
			"inlined det_s0 (det) into harris_s0",
			"inlined trace_s0 (trace) into harris_s0",
			"inlined Sxx_s0 (Sxx) into harris_s0",
			"inlined Syy_s0 (Syy) into harris_s0",
			"space 0 (Iy_s0), intermediate: fused into the tiles of space 2 (harris_s0); 46412704 instances executed for 40960000 (overlap 1.133x)",
			"space 1 (Ix_s0), intermediate: fused into the tiles of space 2 (harris_s0); 46412704 instances executed for 40960000 (overlap 1.133x)",
			"space 2 (harris_s0), live-out: tiled, with 2 spaces fused into its tiles; not fused: its values live after the program",
		}},
		{"transposed", []string{"--fuse", "auto", "polybench/syrk"}, exitOK, []string{
			"polybench/syrk MINI n=30 m=20: auto: min, tiled 32 where tiles bring reuse or a wavefront (post-tiling fusion fuses no stage here)",
			"transposed copy A_t[e1][e0] = A[e0][e1] (S2) for S1: A[j][k]",
			"left S0 untiled: its tiles would bring no reuse, cut no chain and need no wavefront",
			"tiled S2 by 32,32",
			"tiled S1 by 32,32,32",
		}},
		{"layout kept", []string{"--fuse", "auto", "--keep-layout", "polybench/syrk"}, exitOK, []string{
			"polybench/syrk MINI n=30 m=20: auto: min, tiled 32 where tiles bring reuse or a wavefront (post-tiling fusion fuses no stage here)",
			"left S0 untiled: its tiles would bring no reuse, cut no chain and need no wavefront",
			"tiled S1 by 32,32,32",
		}},
		{"points", []string{"--fuse", "auto", "polybench/bicg"}, exitOK, []string{
			"polybench/bicg MINI m=38 n=42: auto: min, tiled 32 where tiles bring reuse or a wavefront (post-tiling fusion fuses no stage here)",
			"tiled S2 by 32,32",
			"ordered the points of S2 for locality: S2[i, j] -> [i, j]",
			"tiled S3 by 32,32",
		}},
		{"siblings", []string{"--fuse", "auto", "polybench/gesummv"}, exitOK, []string{
			"polybench/gesummv MINI n=30: auto: min, tiled 32 where tiles bring reuse or a wavefront (post-tiling fusion fuses no stage here)",
			"fused sibling reductions S2, S3 into one band, left untiled",
		}},
		{"wavefront", []string{"--fuse", "auto", "polybench/jacobi-2d"}, exitOK, []string{
			"polybench/jacobi-2d MINI tsteps=20 n=30: auto: min, tiled 32 where tiles bring reuse or a wavefront (post-tiling fusion fuses no stage here)",
			"tiled S0, S1 by 32,32,32, a wavefront of tiles",
			"distributed the innermost point loop of S0, S1 over its statements, each loop marked for vectorization",
		}},
		{"strategy", []string{"--fuse", "min", "../../fusion/testdata/chain.c"}, exitUsage, []string{
			"tilefuse explain: --fuse min: only post-tiling fusion (post, or auto where it picks post) is explained",
		}},
		{"missing", []string{"nope.c"}, exitUsage, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, status := runCmd("", append([]string{"explain"}, tc.args...)...)
			if status != tc.status {
				t.Fatalf("status %d, want %d; stderr %s", status, tc.status, errOut)
			}
			got := out
			if status != exitOK {
				got = errOut
				if tc.want == nil {
					if strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "nope.c") {
						t.Errorf("want one line naming nope.c, got %q", errOut)
					}
					return
				}
			}
			if diff := cmp.Diff(tc.want, strings.Split(strings.TrimSuffix(got, "\n"), "\n")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestExplainJSON: the JSON form carries the same decisions, with the
// estimate behind the recomputation bound.
func TestExplainJSON(t *testing.T) {
	out, errOut, status := runCmd("", "explain", "--format", "json", "--inline=false", "--tile", "4", "--size", "n=100", "../../fusion/testdata/upsample.c")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var doc explainJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	spaces := doc.Spaces
	type brief struct {
		Decision  string
		Estimated float64
		Original  int64
	}
	var got []brief
	for _, s := range spaces {
		got = append(got, brief{s.Decision, math.Round(s.Estimated*100) / 100, s.Original})
	}
	want := []brief{{"tiled", 2, 101}, {"tiled", 0, 400}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestExplainAutoJSON: where auto picks a strategy other than post,
// --format json still gives JSON, with the tiling's decisions.
func TestExplainAutoJSON(t *testing.T) {
	out, errOut, status := runCmd("", "explain", "--format", "json", "--fuse", "auto", "polybench/bicg")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var doc explainJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	want := []string{"tiled S2 by 32,32", "ordered the points of S2 for locality: S2[i, j] -> [i, j]", "tiled S3 by 32,32"}
	if diff := cmp.Diff(want, doc.Tiling); diff != "" {
		t.Errorf("tiling (-want +got)\n%s", diff)
	}
	if !strings.HasPrefix(doc.Auto, "auto: min") {
		t.Errorf("auto %q", doc.Auto)
	}
}

// TestExplainWidened: camera_pipe's tone curve, a byte table read at
// each pixel's value, is stored as i32, and explain says so.
func TestExplainWidened(t *testing.T) {
	out, errOut, status := runCmd("", "explain", "--format", "json", "polymage/camera_pipe")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var doc explainJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"curve"}, doc.Widened); diff != "" {
		t.Errorf("widened (-want +got)\n%s", diff)
	}
}
