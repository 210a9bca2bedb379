package trace

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tilefuse/tilefuse/internal/ctool"
)

// Timeout bounds compiling and running the code of one RunC call.
const Timeout = 2 * time.Minute

// exitLimit is the exit status of a program that passed its limit.
const exitLimit = 3

// prelude defines the helpers of isl's printed C (floord, min, max) and
// those of CLooG-style code (ceild, intMod) as functions on long, with
// floor division and modulo right for negative operands, and the recorder
// every statement macro calls.
const prelude = `#include <stdio.h>
#include <stdlib.h>

static long tf_count, tf_limit = %d;

static void tf_rec(int id, int n, const long *a) {
	if (++tf_count > tf_limit) {
		fflush(stdout);
		fprintf(stderr, "more than %%ld instances\n", tf_limit);
		exit(%d);
	}
	printf("%%d", id);
	for (int k = 0; k < n; k++)
		printf(" %%ld", a[k]);
	putchar('\n');
}

static inline long floord(long n, long d) {
	long q = n / d;
	return n %% d != 0 && (n < 0) != (d < 0) ? q - 1 : q;
}
static inline long ceild(long n, long d) { return -floord(-n, d); }
static inline long intMod(long n, long d) { return n - d * floord(n, d); }
static inline long min(long a, long b) { return a < b ? a : b; }
static inline long max(long a, long b) { return a > b ? a : b; }
`

var ident = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// RunC is RunCLimit with DefaultLimit.
func RunC(code string, params map[string]int64, stmts map[string]int) ([]Instance, error) {
	return RunCLimit(code, params, stmts, DefaultLimit)
}

// RunCLimit runs C statements (a loop nest as isl_ast_node_print writes
// it) and returns the statement instances they execute, in order. The
// parameters become "const long" variables; each statement of stmts (name
// -> number of iterators) becomes a macro taking that many arguments that
// records the call. The code is compiled with gcc -O0 in a temporary
// directory; a compile error is returned with gcc's messages (line numbers
// are those of code). More than limit instances give an error wrapping
// ErrLimit.
func RunCLimit(code string, params map[string]int64, stmts map[string]int, limit int) ([]Instance, error) {
	src, names, err := program(code, params, stmts, limit)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "trace-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()

	bin := filepath.Join(dir, "trace")
	// LC_ALL=C: plain quotes in gcc's messages.
	if err := ctool.Compile(ctx, ctool.GCC, []string{"LC_ALL=C"}, src, bin+".c", bin, []string{"-O0", "-std=gnu11"}); err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	stdout, err := ctool.Output(ctx, nil, bin)
	var te *ctool.Error
	if errors.As(err, &te) {
		var ee *exec.ExitError
		if errors.As(te.Err, &ee) && ee.ExitCode() == exitLimit {
			return nil, fmt.Errorf("%w: %s", ErrLimit, strings.TrimSpace(te.Output))
		}
		return nil, fmt.Errorf("trace: running the code: %v\n%s", te.Err, te.Output)
	}
	return parseTrace(bytes.NewReader(stdout), names, stmts)
}

// program writes the C source: the prelude, a macro per statement, and
// main with the parameters and code.
func program(code string, params map[string]int64, stmts map[string]int, limit int) (string, []string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, prelude, limit, exitLimit)
	names := sortedKeys(stmts)
	for id, name := range names {
		n := stmts[name]
		if !ident.MatchString(name) || strings.HasPrefix(name, "tf_") || n < 0 {
			return "", nil, fmt.Errorf("trace: bad statement %s with %d iterators", name, n)
		}
		args := make([]string, n)
		vals := make([]string, n)
		for k := range args {
			args[k] = fmt.Sprintf("a%d", k)
			vals[k] = fmt.Sprintf("(long)(a%d)", k)
		}
		arr := "0"
		if n > 0 {
			arr = "(const long[]){" + strings.Join(vals, ", ") + "}"
		}
		fmt.Fprintf(&b, "#define %s(%s) tf_rec(%d, %d, %s)\n", name, strings.Join(args, ", "), id, n, arr)
	}
	b.WriteString("\nint main(void) {\n")
	for _, p := range sortedKeys(params) {
		if !ident.MatchString(p) || strings.HasPrefix(p, "tf_") {
			return "", nil, fmt.Errorf("trace: bad parameter name %q", p)
		}
		fmt.Fprintf(&b, "\tconst long %s = %d;\n\t(void)%s;\n", p, params[p], p)
	}
	// gcc reports errors at the lines of code.
	fmt.Fprintf(&b, "#line 1 \"code.c\"\n%s\n", code)
	b.WriteString("\treturn 0;\n}\n")
	return b.String(), names, nil
}

// parseTrace reads the lines "id arg...", checking each statement's arity.
func parseTrace(out io.Reader, names []string, stmts map[string]int) ([]Instance, error) {
	var res []Instance
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			return nil, fmt.Errorf("trace: empty trace line")
		}
		id, err := strconv.Atoi(f[0])
		if err != nil || id < 0 || id >= len(names) || len(f)-1 != stmts[names[id]] {
			return nil, fmt.Errorf("trace: bad trace line %q", sc.Text())
		}
		in := Instance{Stmt: names[id], Iter: make([]int64, len(f)-1)}
		for k, s := range f[1:] {
			if in.Iter[k], err = strconv.ParseInt(s, 10, 64); err != nil {
				return nil, fmt.Errorf("trace: bad trace line %q", sc.Text())
			}
		}
		res = append(res, in)
	}
	return res, sc.Err()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
