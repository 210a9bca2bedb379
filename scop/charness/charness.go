// Package charness generates the C harness that runs a compiled program
// outside Go: a main that reads the program's argument arrays from a file,
// calls the program's function, and writes the arrays back.
//
// The file format is the concatenation of Buffer.Data of every array
// argument, in Program.ArgNames order; parameter values are compiled into
// the harness. The same format comes back, so the harness's output is
// compared with the reference executor's buffers byte for byte.
package charness

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/scop"
)

// Main returns a C main for calling fn, the function compiled from p,
// with the given parameter values. The result is meant to be compiled
// together with (or after) the function's definition, or with a prototype
// of it in proto.
func Main(p *scop.Program, params map[string]int64, fn, proto string) (string, error) {
	var b strings.Builder
	b.WriteString("#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n\n")
	if proto != "" {
		b.WriteString(proto + "\n\n")
	}
	var args, io []string
	for _, name := range p.ArgNames() {
		if contains(p.Params, name) {
			v, ok := params[name]
			if !ok {
				return "", fmt.Errorf("no value for parameter %s", name)
			}
			args = append(args, fmt.Sprint(v))
			continue
		}
		a := p.Array(name)
		shape, err := a.Shape(params)
		if err != nil {
			return "", err
		}
		n := int64(1)
		for _, d := range shape {
			n *= d
		}
		fmt.Fprintf(&b, "static %s %s_buf[%d];\n", a.Type.CName(), name, max(n, 1))
		io = append(io, fmt.Sprintf("%s_buf, (size_t)%d * sizeof(%s)", name, n, a.Type.CName()))
		if a.Rank() == 0 {
			args = append(args, name+"_buf[0]")
		} else {
			args = append(args, "(void *)"+name+"_buf")
		}
	}
	b.WriteString(`
static void xfer(FILE *f, void *p, size_t n, int out) {
	size_t k = out ? fwrite(p, 1, n, f) : fread(p, 1, n, f);
	if (k != n) {
		fprintf(stderr, "harness: short %s\n", out ? "write" : "read");
		exit(3);
	}
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: %s IN OUT\n", argv[0]);
		return 2;
	}
	FILE *in = fopen(argv[1], "rb");
	if (!in) { perror(argv[1]); return 3; }
`)
	for _, x := range io {
		fmt.Fprintf(&b, "\txfer(in, %s, 0);\n", x)
	}
	fmt.Fprintf(&b, "\tfclose(in);\n\t%s(%s);\n", fn, strings.Join(args, ", "))
	b.WriteString("\tFILE *out = fopen(argv[2], \"wb\");\n\tif (!out) { perror(argv[2]); return 3; }\n")
	for _, x := range io {
		fmt.Fprintf(&b, "\txfer(out, %s, 1);\n", x)
	}
	b.WriteString("\treturn fclose(out) != 0;\n}\n")
	return b.String(), nil
}

// ArrayArgs lists the array arguments of p in file order.
func ArrayArgs(p *scop.Program) []*scop.Array {
	var out []*scop.Array
	for _, name := range p.ArgNames() {
		if a := p.Array(name); a != nil {
			out = append(out, a)
		}
	}
	return out
}

// Encode concatenates the array arguments' buffers in file order.
func Encode(p *scop.Program, bufs map[string]*scop.Buffer) ([]byte, error) {
	var out bytes.Buffer
	if err := EncodeTo(&out, p, bufs); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// EncodeTo writes the array arguments' buffers to w in file order, as
// Encode does, without a copy of them all in memory (a pipeline's images
// are hundreds of megabytes).
func EncodeTo(w io.Writer, p *scop.Program, bufs map[string]*scop.Buffer) error {
	for _, a := range ArrayArgs(p) {
		buf, ok := bufs[a.Name]
		if !ok {
			return fmt.Errorf("no buffer for array %s", a.Name)
		}
		if _, err := w.Write(buf.Data); err != nil {
			return err
		}
	}
	return nil
}

// Decode splits data into buffers shaped like those in like.
func Decode(p *scop.Program, like map[string]*scop.Buffer, data []byte) (map[string]*scop.Buffer, error) {
	return DecodeFrom(bytes.NewReader(data), p, like)
}

// DecodeFrom reads the array arguments from r into new buffers shaped
// like those in like, as Decode splits them, each read in place.
func DecodeFrom(r io.Reader, p *scop.Program, like map[string]*scop.Buffer) (map[string]*scop.Buffer, error) {
	out := map[string]*scop.Buffer{}
	for _, a := range ArrayArgs(p) {
		l := like[a.Name]
		if l == nil {
			return nil, fmt.Errorf("no buffer for array %s", a.Name)
		}
		buf := &scop.Buffer{Type: l.Type, Shape: slices.Clone(l.Shape), Data: make([]byte, len(l.Data))}
		if _, err := io.ReadFull(r, buf.Data); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, fmt.Errorf("harness output too short at array %s", a.Name)
			}
			return nil, err
		}
		out[a.Name] = buf
	}
	extra, err := io.Copy(io.Discard, r)
	if err != nil {
		return nil, err
	}
	if extra != 0 {
		return nil, fmt.Errorf("harness output has %d extra bytes", extra)
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
