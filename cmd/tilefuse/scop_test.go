package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestScopCommand(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		status int
		stdout []string // substrings
		stderr string   // substring, "" for empty
	}{
		{"polybench text", []string{"scop", "polybench/gemm"}, exitOK,
			[]string{"program gemm", "params   [ni, nj, nk]", "array    C f64[1000][1100] live-in live-out", "statement S1", "C[i][j] = (C[i][j] + ((alpha * A[i][k]) * B[k][j]))"}, ""},
		{"pipeline text", []string{"scop", "pipelines/blur"}, exitOK, []string{"program blur", "statement out_s0", "array    out f32[R][C] live-out"}, ""},
		{"histogram may-write", []string{"scop", "pipelines/histeq"}, exitOK, []string{"may-write"}, ""},
		{"C file, two functions", []string{"scop", "testdata/scop/two.c"}, exitOK, []string{"program scale", "program shift", "Y[(i + 1)] = Y[i]"}, ""},
		{"C file, one function", []string{"scop", "--func", "shift", "testdata/scop/two.c"}, exitOK, []string{"program shift"}, ""},
		{"list", []string{"scop", "--list"}, exitOK, []string{"pipelines/blur", "polybench/seidel-2d"}, ""},
		{"unknown function", []string{"scop", "--func", "nope", "testdata/scop/two.c"}, exitUsage, nil, `testdata/scop/two.c has no function "nope"`},
		{"non-affine subscript", []string{"scop", "testdata/scop/bad_subscript.c"}, exitUsage, nil, "testdata/scop/bad_subscript.c:4:7: non-affine subscript (i * i) of A\n"},
		{"unknown kernel", []string{"scop", "polybench/nope"}, exitUsage, nil, `unknown PolyBench kernel "nope"`},
		{"unknown pipeline", []string{"scop", "pipelines/nope"}, exitUsage, nil, `unknown pipeline "nope"`},
		{"missing file", []string{"scop", "testdata/scop/none.c"}, exitUsage, nil, "no such file"},
		{"bad format", []string{"scop", "--format", "xml", "polybench/gemm"}, exitUsage, nil, `unknown format "xml"`},
		{"no source", []string{"scop"}, exitUsage, nil, "want one SOURCE"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, status := runCmd("", tc.args...)
			if status != tc.status {
				t.Fatalf("status %d, want %d\nstderr: %s", status, tc.status, stderr)
			}
			for _, want := range tc.stdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			if tc.status != exitOK && stdout != "" {
				t.Errorf("failed command wrote to stdout: %q", stdout)
			}
			if !strings.Contains(stderr, tc.stderr) || tc.stderr == "" && stderr != "" {
				t.Errorf("stderr = %q, want it to contain %q", stderr, tc.stderr)
			}
		})
	}
}

// TestScopJSON checks that the JSON form is valid and holds every
// statement with its relations.
func TestScopJSON(t *testing.T) {
	stdout, stderr, status := runCmd("", "scop", "--format", "json", "polybench/2mm")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	var got struct {
		Name       string
		Params     []string
		Statements []struct {
			Name, Domain, Schedule, Body string
			Reads, Writes                []struct{ Array, Relation string }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, stdout)
	}
	if got.Name != "2mm" || len(got.Params) != 4 || len(got.Statements) != 4 {
		t.Fatalf("unexpected program %+v", got)
	}
	for _, s := range got.Statements {
		if s.Domain == "" || s.Schedule == "" || s.Body == "" || len(s.Writes) != 1 || s.Name != "S0" && len(s.Reads) == 0 {
			t.Errorf("statement %s incomplete: %+v", s.Name, s)
		}
	}
	if strings.Contains(stdout, `\u003e`) {
		t.Error("JSON escapes '>' in relations")
	}
}
