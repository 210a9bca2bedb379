package islcodegen

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/internal/loopc"
	"github.com/tilefuse/tilefuse/presburger"
)

// Category is the result of one input of the suite.
type Category string

const (
	CatEqual     Category = "equal"
	CatTies      Category = "ties"
	CatDifferent Category = "different"
	CatRefused   Category = "refused"
	CatBudget    Category = "budget"
)

// Result is one input's category with the reason (empty when equal).
type Result struct {
	Category Category
	Reason   string
}

// Budget bounds the work on one input.
type Budget struct {
	// Time is the deadline of reading the input and generating its code.
	Time time.Duration
	// HeapBytes stops the generation when the live heap grows past it.
	HeapBytes uint64
	// Instances is the most instances each trace records.
	Instances int
	// Valuations is the number of parameter valuations tried.
	Valuations int
}

// Inputs lists the inputs under dir (.st and .in files, in
// subdirectories too), as paths relative to dir, sorted.
func Inputs(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := filepath.Ext(path); !d.IsDir() && (ext == ".st" || ext == ".in") {
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return err
			}
			out = append(out, rel)
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// Expected is the path of the C that isl prints for an input.
func Expected(input string) string { return strings.TrimSuffix(input, filepath.Ext(input)) + ".c" }

// RunInput generates the code of one input and compares its traces with
// those of isl's expected code, within the budget.
func RunInput(path string, b Budget) Result {
	ctx, cancel := context.WithTimeout(context.Background(), b.Time)
	defer cancel()
	stop := sync.OnceFunc(presburger.WatchContext(ctx))
	defer stop()
	heapHigh := watchHeap(ctx, cancel, b.HeapBytes)

	over := func(err error) (Result, bool) {
		switch {
		case heapHigh():
			return Result{CatBudget, fmt.Sprintf("the heap passed %d MiB: %v", b.HeapBytes>>20, oneLine(err))}, true
		case ctx.Err() != nil:
			return Result{CatBudget, fmt.Sprintf("no code within %v: %v", b.Time, oneLine(err))}, true
		}
		return Result{}, false
	}
	in, err := Read(path)
	if err != nil {
		if r, ok := over(err); ok {
			return r
		}
		return Result{CatRefused, "reading the input: " + oneLine(err)}
	}
	src, err := os.ReadFile(Expected(path))
	if err != nil {
		return Result{CatRefused, "no expected code: " + oneLine(err)}
	}
	code, err := loopc.Parse(string(src))
	if err != nil {
		return Result{CatRefused, "reading isl's expected code: " + oneLine(err)}
	}
	opts := ast.Options{}
	if in.HasContext {
		opts.Context = in.Context
	}
	n, err := ast.Generate(in.Tree, opts)
	if err != nil {
		if r, ok := over(err); ok {
			return r
		}
		return Result{CatRefused, "generating the code: " + oneLine(err)}
	}
	ps, err := InputParams(in)
	if err != nil {
		return Result{CatRefused, "reading the parameters: " + oneLine(err)}
	}
	vals, err := ps.Choose(b.Valuations)
	if err != nil || len(vals) == 0 {
		return Result{CatRefused, fmt.Sprintf("no small parameter values satisfy the context (%v)", err)}
	}
	stop()
	res := Result{Category: CatEqual}
	for _, v := range vals {
		ours, err := RunAST(n, v, b.Instances)
		if err != nil {
			return Result{CatDifferent, fmt.Sprintf("at %v: running tilefuse's code: %v", v, oneLine(err))}
		}
		isl, err := RunISL(code, v, b.Instances)
		if err != nil {
			return Result{CatRefused, fmt.Sprintf("at %v: running isl's code: %v", v, oneLine(err))}
		}
		switch o, why := Compare(ours, isl, in.Schedule, v); o {
		case Different:
			return Result{CatDifferent, fmt.Sprintf("at %v: %s", v, why)}
		case EqualUpToTies:
			res = Result{CatTies, fmt.Sprintf("at %v: %s", v, why)}
		case Equal:
			if why != "" && res.Category == CatEqual {
				res.Reason = fmt.Sprintf("at %v: %s", v, why)
			}
		}
	}
	return res
}

// watchHeap cancels ctx when the heap in use passes limit (0: no limit)
// and reports whether it did.
func watchHeap(ctx context.Context, cancel func(), limit uint64) func() bool {
	hit := make(chan struct{})
	if limit == 0 {
		return func() bool { return false }
	}
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		var ms runtime.MemStats
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > limit {
					close(hit)
					cancel()
					return
				}
			}
		}
	}()
	return func() bool {
		select {
		case <-hit:
			return true
		default:
			return false
		}
	}
}

func oneLine(err error) string {
	if err == nil {
		return "<nil>"
	}
	var r *Refusal
	if errors.As(err, &r) {
		return r.Reason
	}
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}
