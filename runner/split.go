package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/tilefuse/tilefuse/internal/ctool"
)

// splitMinBytes is the smallest IR worth building in pieces: below it,
// llvm-split, the relocatable link and objcopy cost more than the
// second core saves.
var splitMinBytes = 96 << 10

// splitParts is how many pieces a build is cut into per worker. One:
// every opt and llc process costs its start and the parsing of the
// declarations its piece shares, and the emitter keeps functions small
// (it outlines the nests of a large tile body), so hashing them into as
// many pieces as workers already evens out the loads (local_laplacian:
// opt/llc 2.1 s in 2 pieces, 2.7 s in 8).
const splitParts = 1

// pieceOptFlags are opt's options for the pieces of a large module: the
// -O3 pipeline with -O2's unrolling threshold. A large module is a
// pipeline of dozens of vectorized nests, where -O3's aggressive
// unrolling doubles the code and the time of opt and llc (local_laplacian:
// 93 KB of code against 49 KB in its largest piece) and measured no
// faster on the PolyMage suite.
var pieceOptFlags = []string{"-O3", "-unroll-threshold-aggressive=150"}

// jobs is how many opt/llc pipelines one build runs at once.
func (tc *Toolchain) jobs() int {
	if tc.Jobs > 0 {
		return tc.Jobs
	}
	return runtime.NumCPU()
}

// canSplit reports whether ir is built in pieces: opt and llc are
// single-threaded, and a large module (a post-tiling fusion pipeline's
// dozens of parallel-region functions) takes them several seconds each.
func (tc *Toolchain) canSplit(ir string) bool {
	return tc.Split != "" && tc.ObjCopy != "" && tc.jobs() > 1 && len(ir) >= splitMinBytes &&
		strings.Count(ir, "\ndefine ") > 1
}

// objectSplit builds the module ll in pieces: llvm-split cuts it into
// modules (making the functions and globals one piece uses from another
// external), each piece goes through opt and llc on its own worker, a
// relocatable link joins the objects into out, and objcopy makes every
// symbol the source did not export local again, so the object exports
// exactly what the one-piece build does.
func (tc *Toolchain) objectSplit(ctx context.Context, dir, ll, ir, out string) error {
	workers := tc.jobs()
	prefix := filepath.Join(dir, "part")
	if err := ctool.Run(ctx, nil, tc.Split, "-j", fmt.Sprint(workers*splitParts), ll, "-o", prefix); err != nil {
		return err
	}
	parts, err := filepath.Glob(prefix + "[0-9]*")
	if err != nil || len(parts) == 0 {
		return fmt.Errorf("runner: llvm-split wrote no modules (%v)", err)
	}
	sizes := map[string]int64{}
	for _, p := range parts {
		if fi, err := os.Stat(p); err == nil {
			sizes[p] = fi.Size()
		}
	}
	sort.Slice(parts, func(i, j int) bool { return sizes[parts[i]] > sizes[parts[j]] })

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan string, len(parts))
	for _, p := range parts {
		next <- p
	}
	close(next)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				if err := tc.optLLC(ctx, pieceOptFlags, p, p+".bc", p+".o"); err != nil {
					once.Do(func() { first = err; cancel() })
					return
				}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	joined := filepath.Join(dir, "joined.o")
	args := []string{"-r", "-nostdlib", "-o", joined}
	for _, p := range parts {
		args = append(args, p+".o")
	}
	if err := ctool.Run(ctx, nil, tc.CC, args...); err != nil {
		return err
	}
	args = nil
	for _, name := range exportedSymbols(ir) {
		args = append(args, "--keep-global-symbol="+name)
	}
	return ctool.Run(ctx, nil, tc.ObjCopy, append(args, joined, out)...)
}

// optLLC runs opt with flags (-O3 ...) on the module in, then llc -O3
// into the object out.
func (tc *Toolchain) optLLC(ctx context.Context, flags []string, in, bc, out string) error {
	mcpu := "-mcpu=" + tc.cpu()
	args := append(append([]string(nil), flags...), mcpu, in, "-o", bc)
	if err := ctool.Run(ctx, nil, tc.Opt, args...); err != nil {
		return err
	}
	return ctool.Run(ctx, nil, tc.LLC, "-O3", mcpu, "-relocation-model=pic", "-filetype=obj", bc, "-o", out)
}

// exportedSymbols lists the functions and global variables ir defines
// with external linkage: every definition not marked internal or
// private (llir writes no other local linkage), declarations excluded.
func exportedSymbols(ir string) []string {
	var names []string
	for _, line := range strings.Split(ir, "\n") {
		var head string
		switch {
		case strings.HasPrefix(line, "define "):
			at := strings.Index(line, "@")
			if at < 0 {
				continue
			}
			head, line = line[:at], line[at:]
		case strings.HasPrefix(line, "@"):
			eq := strings.Index(line, " = ")
			if eq < 0 {
				continue
			}
			head = line[eq+3:]
			if strings.HasPrefix(head, "external ") {
				continue
			}
		default:
			continue
		}
		if local(head) {
			continue
		}
		if name := symbolName(line); name != "" {
			names = append(names, name)
		}
	}
	return names
}

// local reports whether the words before a definition's name (or after a
// global's "=") give it local linkage.
func local(head string) bool {
	for _, w := range strings.Fields(head) {
		if w == "internal" || w == "private" {
			return true
		}
		if w == "global" || w == "constant" || w == "alias" {
			break
		}
	}
	return false
}

// symbolName reads the name at the front of s ("@name..." or
// "@\"quoted name\"...").
func symbolName(s string) string {
	s = strings.TrimPrefix(s, "@")
	if strings.HasPrefix(s, `"`) {
		if end := strings.Index(s[1:], `"`); end >= 0 {
			return s[1 : end+1]
		}
		return ""
	}
	end := strings.IndexFunc(s, func(r rune) bool {
		return !(r == '_' || r == '.' || r == '$' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	})
	if end < 0 {
		return s
	}
	return s[:end]
}
