package openscop_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/openscop"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
)

// TestRoundTrip writes every PolyBench kernel as OpenScop, reads it back
// and wants the context, every domain, scattering and access relation
// equal (as sets and maps) to the program's.
func TestRoundTrip(t *testing.T) {
	for _, k := range polybench.Kernels() {
		t.Run(k.Name, func(t *testing.T) {
			p, text, sched := written(t, k)
			checkRead(t, p, text, sched)
		})
	}
}

// TestRoundTripTree writes the scattering of scheduled, tiled trees and
// wants each statement's equal to the tree's schedule map.
func TestRoundTripTree(t *testing.T) {
	for _, name := range []string{"gemm", "jacobi-2d", "2mm", "lu"} {
		t.Run(name, func(t *testing.T) {
			k, ok := polybench.Lookup(name)
			if !ok {
				t.Fatalf("no kernel %s", name)
			}
			p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
			if err != nil {
				t.Fatal(err)
			}
			r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: compiler.Smart, Tile: tiling.Policy{Sizes: []int64{32, 32}}, Stop: compiler.StageFuse, NoInline: true, KeepScalars: true, KeepLayout: true})
			if err != nil {
				t.Fatal(err)
			}
			text, err := openscop.WriteTree(r.Program, r.Tree())
			if err != nil {
				t.Fatal(err)
			}
			um, err := r.Tree().Map()
			if err != nil {
				t.Fatal(err)
			}
			sched := map[string]presburger.Map{}
			for _, m := range um.Maps() {
				sched[m.Space().In.Name] = m
			}
			checkRead(t, r.Program, text, sched)
		})
	}
}

// TestWriteTreeRefusesPost: a post-tiling-fused tree recomputes
// instances, which OpenScop's one scattering per statement cannot say.
func TestWriteTreeRefusesPost(t *testing.T) {
	p, err := polymage.Harris()
	if err != nil {
		t.Fatal(err)
	}
	r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: compiler.Post, Stop: compiler.StageFuse})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := openscop.WriteTree(r.Program, r.Tree()); err == nil || !strings.Contains(err.Error(), "the tree has a skipped subtree at /") {
		t.Fatalf("WriteTree(harris under post) = %v, want a refusal naming the fused originals' subtree", err)
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line       int
		msg        string
	}{
		{"no header", "C\n", 1, `"C" where <OpenScop> should be`},
		{"truncated", "<OpenScop>\nC\n", 2, "the file ends where a relation type should be"},
		{"columns", "<OpenScop>\nC\nCONTEXT\n0 3 0 0 0 0\n", 4, "3 columns, want 2 + the 0 dimensions"},
		{"flag", "<OpenScop>\nC\nCONTEXT\n1 2 0 0 0 0\n2 0\n", 5, "the first column is 2"},
		{"not integers", "<OpenScop>\nC\nCONTEXT\n1 2 0 0 0 0\n0 x\n", 5, "integers"},
		{"arrays", "<OpenScop>\nC\nCONTEXT\n0 2 0 0 0 0\n0\n0\n<arrays>\n1\nA\n</arrays>\n</OpenScop>\n", 10, "is not NUMBER NAME"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := openscop.Read(tc.text)
			var e *openscop.Error
			if !errors.As(err, &e) {
				t.Fatalf("Read = %v, want an *openscop.Error", err)
			}
			if e.Line != tc.line || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("Read = line %d: %s, want line %d: ...%s...", e.Line, e.Msg, tc.line, tc.msg)
			}
		})
	}
}

// written parses kernel k and writes it as OpenScop: the program, the
// text and each statement's original schedule (its scattering).
func written(t *testing.T, k polybench.Kernel) (*scop.Program, string, map[string]presburger.Map) {
	t.Helper()
	p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
	if err != nil {
		t.Fatal(err)
	}
	text, err := openscop.Write(p, presburger.UnionMap{})
	if err != nil {
		t.Fatal(err)
	}
	sched := map[string]presburger.Map{}
	for _, s := range p.Stmts {
		sched[s.Name] = s.Schedule
	}
	return p, text, sched
}

// checkRead reads text and compares it with p and the scattering sched
// of each statement.
func checkRead(t *testing.T, p *scop.Program, text string, sched map[string]presburger.Map) {
	t.Helper()
	s, err := openscop.Read(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if strings.Join(s.Params, " ") != strings.Join(p.Params, " ") {
		t.Errorf("parameters %q, want %q", s.Params, p.Params)
	}
	ctx, err := openscop.Set(s.Context, p.Context.Space())
	if err != nil {
		t.Fatal(err)
	}
	equalSets(t, "context", ctx, p.Context)
	ids := map[string]int64{}
	for id, name := range s.Arrays {
		ids[name] = id
	}
	if len(s.Statements) != len(p.Stmts) {
		t.Fatalf("%d statements, want %d", len(s.Statements), len(p.Stmts))
	}
	for i, st := range p.Stmts {
		got := s.Statements[i]
		if want := 2 + len(st.Reads) + len(st.Writes); len(got.Relations) != want {
			t.Fatalf("%s: %d relations, want %d", st.Name, len(got.Relations), want)
		}
		dom, err := openscop.Set(got.Relations[0], st.Domain.Space())
		if err != nil {
			t.Fatal(err)
		}
		equalSets(t, st.Name+" domain", dom, st.Domain)
		want := sched[st.Name]
		scat, err := openscop.Map(got.Relations[1], want.Space())
		if err != nil {
			t.Fatal(err)
		}
		equalMaps(t, st.Name+" scattering", scat, want)
		if strings.Join(got.Iters, " ") != strings.Join(st.Iters, " ") {
			t.Errorf("%s: iterators %q, want %q", st.Name, got.Iters, st.Iters)
		}
		k := 2
		for _, acc := range append(append([]scop.Access{}, st.Reads...), st.Writes...) {
			rel := got.Relations[k]
			k++
			wantType := "READ"
			if k-2 > len(st.Reads) {
				wantType = "WRITE"
				if acc.May {
					wantType = "MAY_WRITE"
				}
			}
			if len(rel) > 0 && rel[0].Type != wantType {
				t.Errorf("%s: relation %d is %s, want %s", st.Name, k-1, rel[0].Type, wantType)
			}
			// OpenScop's first output dimension is the array's number.
			numbered, err := acc.Rel.InsertDims(presburger.DimOut, 0, 1)
			if err == nil {
				numbered, err = numbered.FixDim(presburger.DimOut, 0, ids[acc.Array])
			}
			if err != nil {
				t.Fatal(err)
			}
			m, err := openscop.Map(rel, numbered.Space())
			if err != nil {
				t.Fatal(err)
			}
			equalMaps(t, st.Name+" access to "+acc.Array, m, numbered)
		}
	}
}

func equalSets(t *testing.T, what string, got, want presburger.Set) {
	t.Helper()
	if ok, err := got.IsEqual(want); err != nil || !ok {
		t.Errorf("%s read back: %v, want %v (%v)", what, got, want, err)
	}
}

func equalMaps(t *testing.T, what string, got, want presburger.Map) {
	t.Helper()
	if ok, err := got.IsEqual(want); err != nil || !ok {
		t.Errorf("%s read back: %v, want %v (%v)", what, got, want, err)
	}
}
