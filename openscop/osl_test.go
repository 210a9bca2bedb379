//go:build openscop

package openscop_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tilefuse/tilefuse/polybench"
)

// oslMain reads an OpenScop file with the OpenScop library and prints
// it as the library writes it.
const oslMain = `#include <stdio.h>
#include <osl/osl.h>
int main(int argc, char **argv) {
	FILE *f = fopen(argv[1], "r");
	if (!f) return 3;
	osl_scop_p s = osl_scop_read(f);
	if (!s) { fprintf(stderr, "osl_scop_read: no scop\n"); return 1; }
	osl_scop_print(stdout, s);
	osl_scop_free(s);
	return 0;
}
`

// TestOpenScopLibrary hands every PolyBench kernel's OpenScop to the
// OpenScop library (github.com/periscop/openscop, the reader of Clan,
// Candl and Pluto), reads what the library prints back, and wants the
// program's relations. TILEFUSE_OPENSCOP_SRC names the library's source
// tree, with include/osl/scop.h made from scop.h.in (README.md: OpenScop).
func TestOpenScopLibrary(t *testing.T) {
	src := os.Getenv("TILEFUSE_OPENSCOP_SRC")
	if src == "" {
		t.Skip("TILEFUSE_OPENSCOP_SRC is not set: no OpenScop library source tree to build")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "osl.c"), []byte(oslMain), 0o644); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(src, "source", "*.c"))
	ext, _ := filepath.Glob(filepath.Join(src, "source", "extensions", "*.c"))
	bin := filepath.Join(dir, "osl")
	args := append([]string{"-O1", "-w", "-I", filepath.Join(src, "include"), "-o", bin, filepath.Join(dir, "osl.c")}, append(files, ext...)...)
	if out, err := exec.Command("gcc", append(args, "-lgmp")...).CombinedOutput(); err != nil {
		t.Fatalf("building the OpenScop library: %v\n%s", err, out)
	}
	for _, k := range polybench.Kernels() {
		t.Run(k.Name, func(t *testing.T) {
			p, text, sched := written(t, k)
			file := filepath.Join(dir, k.Name+".scop")
			if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(bin, file).Output()
			if err != nil {
				t.Fatalf("the OpenScop library refuses the file: %v", err)
			}
			checkRead(t, p, string(out), sched)
		})
	}
}
