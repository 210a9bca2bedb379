package charness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tilefuse/tilefuse/internal/ctool"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// Inputs returns buffers for every array of p at params, the live-in
// arrays filled deterministically (Buffer.Fill, seeded by argument
// position).
func Inputs(p *scop.Program, params map[string]int64) (map[string]*scop.Buffer, error) {
	bufs, err := refexec.Alloc(p, params)
	if err != nil {
		return nil, err
	}
	for i, a := range ArrayArgs(p) {
		if a.LiveIn {
			bufs[a.Name].Fill(uint64(i + 1))
		}
	}
	return bufs, nil
}

// Arguments is Inputs for the array arguments alone (what the harness
// reads), with the same contents, except the live-in arrays named in
// given, which are used as they are. The program's other arrays, a
// pipeline's whole-image intermediates, are not allocated.
func Arguments(p *scop.Program, params map[string]int64, given map[string]*scop.Buffer) (map[string]*scop.Buffer, error) {
	bufs := map[string]*scop.Buffer{}
	for i, a := range ArrayArgs(p) {
		if b, ok := given[a.Name]; ok && a.LiveIn {
			bufs[a.Name] = b
			continue
		}
		b, err := a.Buffer(params)
		if err != nil {
			return nil, err
		}
		if a.LiveIn {
			b.Fill(uint64(i + 1))
		}
		bufs[a.Name] = b
	}
	return bufs, nil
}

// RunC compiles src, a C translation unit defining function fn compiled
// from p, together with a harness (gcc -O0 plus cflags, in dir), runs it
// on the contents of in and returns the arrays it wrote back. A failed
// build or run is a *ctool.Error naming gcc or the harness.
func RunC(dir string, p *scop.Program, params map[string]int64, src, fn string, in map[string]*scop.Buffer, cflags ...string) (map[string]*scop.Buffer, error) {
	main, err := Main(p, params, fn, "")
	if err != nil {
		return nil, err
	}
	input, err := Encode(p, in)
	if err != nil {
		return nil, err
	}
	inFile, outFile := filepath.Join(dir, "in.bin"), filepath.Join(dir, "out.bin")
	if err := os.WriteFile(inFile, input, 0o644); err != nil {
		return nil, err
	}
	ctx, bin := context.Background(), filepath.Join(dir, "harness")
	code := "#include <math.h>\n" + src + "\n" + main
	if err := ctool.Compile(ctx, ctool.GCC, nil, code, filepath.Join(dir, "h.c"), bin, append([]string{"-O0"}, cflags...), "-lm"); err != nil {
		return nil, err
	}
	if err := ctool.Run(ctx, nil, bin, inFile, outFile); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(outFile)
	if err != nil {
		return nil, err
	}
	return Decode(p, in, data)
}

// Verify runs src (function fn compiled from p) under gcc and p on the
// reference executor from the same inputs, and describes every array
// argument that differs (floats within relative tolerance tol; 0 means
// bit for bit). No differences and no error means the code is right.
func Verify(dir string, p *scop.Program, params map[string]int64, src, fn string, tol float64, cflags ...string) ([]string, error) {
	bufs, err := Inputs(p, params)
	if err != nil {
		return nil, err
	}
	got, err := RunC(dir, p, params, src, fn, bufs, cflags...)
	if err != nil {
		return nil, err
	}
	if err := refexec.Run(p, params, bufs); err != nil {
		return nil, err
	}
	var diffs []string
	for _, a := range ArrayArgs(p) {
		m, err := scop.Compare(got[a.Name], bufs[a.Name], tol)
		if err != nil {
			return nil, err
		}
		if m != nil {
			diffs = append(diffs, fmt.Sprintf("array %s: compiled code differs from the reference at %s", a.Name, m))
		}
	}
	return diffs, nil
}
