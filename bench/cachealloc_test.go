package bench

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/internal/ctool"
)

// TestCachingAllocator: under the shim, a freed large block comes back
// for the next request of its size, a calloc'd one comes back zeroed,
// small blocks and realloc still work, and without it glibc hands out
// what it likes.
func TestCachingAllocator(t *testing.T) {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found")
	}
	dir := t.TempDir()
	so, err := BuildCachingAllocator(context.Background(), cc, dir)
	if err != nil {
		t.Fatal(err)
	}
	prog := `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
	size_t n = 8 << 20;
	char *volatile a = malloc(n);
	memset(a, 7, n);
	free(a);
	char *volatile b = malloc(n - 100);
	printf("reused %d\n", a == b);
	free(b);
	int *volatile c = calloc(n / 4, 4);
	int zero = 1;
	for (size_t i = 0; i < n / 4; i++) zero &= c[i] == 0;
	printf("zeroed %d\n", zero);
	free(c);
	char *volatile s = malloc(16);
	s = realloc(s, 2 << 20);
	s[1 << 20] = 1;
	free(s);
	printf("done\n");
	return 0;
}
`
	bin := filepath.Join(dir, "prog")
	if err := ctool.Compile(context.Background(), cc, nil, prog, filepath.Join(dir, "prog.c"), bin, []string{"-O2"}); err != nil {
		t.Fatal(err)
	}
	out, err := ctool.Output(context.Background(), []string{"LD_PRELOAD=" + so}, bin)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out); got != "reused 1\nzeroed 1\ndone\n" {
		t.Errorf("with the caching allocator:\n%s", got)
	}
	out, err = ctool.Output(context.Background(), nil, bin)
	if err != nil || !strings.Contains(string(out), "zeroed 1\ndone") {
		t.Errorf("without it: %v\n%s", err, out)
	}
}
