package randprog

import (
	"fmt"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tilefuse/tilefuse/runner"
)

// The campaign (issue 17 item 6): random programs compiled under every
// strategy, with and without tiles, for the CPU and the emulated GPU
// mapping, each compared bit for bit with the reference executor.
//
// By default (go test ./internal/randprog) it checks 200 programs (20
// with -short), each under 5 of the 72 combinations of Combos, rotating
// with the seed so that every combination is checked on 13 or 14 programs;
// every combination is compiled through emission and its AST executed by
// the interpreter, and one program in 10 also has one combination built
// with opt/llc/gcc and run natively (when the toolchain is there).
//
// The long run checks every combination of every program and builds one
// combination of each natively:
//
//	TILEFUSE_CAMPAIGN=10000 go test -run TestCampaign -timeout 0 ./internal/randprog
//
// TILEFUSE_CAMPAIGN_FROM=S starts at seed S (default 1), to split a long
// run or continue one; TILEFUSE_CAMPAIGN_NATIVE=K builds K combinations of
// each program natively (default 1 in the long run);
// TILEFUSE_CAMPAIGN_FOR=D (a Go duration, 50m) starts no program after
// D and reports what was checked; TILEFUSE_CAMPAIGN_PARTS=P generates
// programs of P parts (GenerateParts) instead of two to four;
// TILEFUSE_CAMPAIGN_WORKERS=W checks W programs at once (default 1 in the
// long run, 2 in CI), without a deadline on each compilation;
// TILEFUSE_CAMPAIGN_PER=K checks K of the combinations per program
// (rotating as in CI) instead of all; TILEFUSE_CAMPAIGN_MATCH=RE keeps
// only the combinations whose name (Combo.String) RE matches, such as
// "strategy (post|auto), .*cuda-emulate"; TILEFUSE_CAMPAIGN_LOG=FILE appends
// the long run's summary line to FILE (testdata/campaign.log is the
// ledger of the documented runs); TILEFUSE_CAMPAIGN_DATADEP=K generates
// the programs whose seed is a multiple of K with the data-dependent
// parts (Shape.DataDep: guards on values, scatters and gathers through
// an index array, while loops; default 4 in CI, 0 in the long run, 1 for
// all).
func TestCampaign(t *testing.T) {
	n, per, nativeEvery, nativePer := 200, 5, 10, 1
	long := false
	if testing.Short() {
		n = 20
	}
	if v := os.Getenv("TILEFUSE_CAMPAIGN"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("TILEFUSE_CAMPAIGN=%q: want a number of programs", v)
		}
		long, per, nativeEvery = true, len(Combos()), 1
	}
	if v := os.Getenv("TILEFUSE_CAMPAIGN_PER"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 {
			t.Fatalf("TILEFUSE_CAMPAIGN_PER=%q: want a positive number of combinations", v)
		}
		per = min(k, len(Combos()))
	}
	if v := os.Getenv("TILEFUSE_CAMPAIGN_NATIVE"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 0 {
			t.Fatalf("TILEFUSE_CAMPAIGN_NATIVE=%q: want a number", v)
		}
		nativePer = k
	}
	from := int64(1)
	if v := os.Getenv("TILEFUSE_CAMPAIGN_FROM"); v != "" {
		f, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("TILEFUSE_CAMPAIGN_FROM=%q: want a seed", v)
		}
		from = f
	}
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Logf("no native runs: %v", err)
		tc = nil
	}
	parts := 0
	if v := os.Getenv("TILEFUSE_CAMPAIGN_PARTS"); v != "" {
		if parts, err = strconv.Atoi(v); err != nil || parts < 1 {
			t.Fatalf("TILEFUSE_CAMPAIGN_PARTS=%q: want a positive number", v)
		}
	}
	dataDep := int64(4)
	if long {
		dataDep = 0
	}
	if v := os.Getenv("TILEFUSE_CAMPAIGN_DATADEP"); v != "" {
		if dataDep, err = strconv.ParseInt(v, 10, 64); err != nil || dataDep < 0 {
			t.Fatalf("TILEFUSE_CAMPAIGN_DATADEP=%q: want a number (0: none)", v)
		}
	}
	workers := min(2, runtime.GOMAXPROCS(0))
	if long {
		workers = 1
	}
	if v := os.Getenv("TILEFUSE_CAMPAIGN_WORKERS"); v != "" {
		if workers, err = strconv.Atoi(v); err != nil || workers < 1 {
			t.Fatalf("TILEFUSE_CAMPAIGN_WORKERS=%q: want a positive number", v)
		}
	}
	// Compilations with a deadline are exclusive in the process: several
	// workers compile without one (go test's -timeout bounds a hang).
	timeout := time.Duration(0)
	if workers > 1 {
		timeout = -1
	}
	all := Combos()
	if v := os.Getenv("TILEFUSE_CAMPAIGN_MATCH"); v != "" {
		re, err := regexp.Compile(v)
		if err != nil {
			t.Fatalf("TILEFUSE_CAMPAIGN_MATCH=%q: %v", v, err)
		}
		all = slices.DeleteFunc(all, func(c Combo) bool { return !re.MatchString(c.String()) })
		if len(all) == 0 {
			t.Fatalf("TILEFUSE_CAMPAIGN_MATCH=%q matches no combination", v)
		}
		per = min(per, len(all))
	}
	type outcome struct {
		p  *Program
		fs []Failure
		st Stats
	}
	seeds := make(chan int64)
	results := make([]outcome, n)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range seeds {
				p := GenerateShape(seed, Shape{Parts: parts, DataDep: dataDep > 0 && seed%dataDep == 0})
				combos := rotate(all, seed, per)
				c := &Checker{Combos: combos, Toolchain: tc, Timeout: timeout, Native: func(p *Program, i int) bool {
					// Which combinations run natively rotates with the seed too.
					k := (int64(i) - p.Seed/int64(nativeEvery)) % int64(len(combos))
					if k < 0 {
						k += int64(len(combos))
					}
					return p.Seed%int64(nativeEvery) == 0 && k < int64(nativePer)
				}}
				fs, st := c.Check(p)
				results[seed-from] = outcome{p, fs, st}
			}
		}()
	}
	var total Stats
	fails := 0
	start := time.Now()
	next := 0 // the first result not reported
	report := func(upto int) {
		for ; next < upto; next++ {
			o := results[next]
			total.Add(o.st)
			for _, f := range o.fs {
				if known(f) {
					t.Logf("known bug: %v", f)
					continue
				}
				fails++
				t.Errorf("%v\nparams %v\n%s", f, o.p.Params, o.p.Source)
			}
			if long && (next+1)%10 == 0 {
				t.Logf("%d programs, %d combinations, %d native, %d failures, %v", total.Programs, total.Combos, total.Native, fails, time.Since(start).Round(time.Second))
			}
		}
	}
	var until time.Time // zero: no end
	if v := os.Getenv("TILEFUSE_CAMPAIGN_FOR"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("TILEFUSE_CAMPAIGN_FOR=%q: want a duration", v)
		}
		until = time.Now().Add(d)
	}
	for i := 0; i < n; i++ {
		if !until.IsZero() && time.Now().After(until) {
			n = i // the summary counts the programs checked
			break
		}
		seeds <- from + int64(i)
		if workers == 1 {
			// The worker took seed i: it has checked the ones before.
			report(i)
		}
	}
	close(seeds)
	wg.Wait()
	report(n)
	for _, l := range total.Limits {
		t.Logf("limit (a clear refusal, not a failure): %v", l)
	}
	if len(total.Limits)*50 > total.Combos {
		t.Errorf("%d of %d combinations stopped at a limit (more than 2%%)", len(total.Limits), total.Combos)
	}
	summary := fmt.Sprintf("seeds %d..%d: %d programs, %d combinations (%d per program, %d built and run natively), %d failures, %d stopped at a limit, in %v (compile %v, interpreter %v, native %v)",
		from, from+int64(max(n, 1))-1, total.Programs, total.Combos, per, total.Native, fails, len(total.Limits), time.Since(start).Round(time.Millisecond),
		total.Compile.Round(time.Millisecond), total.Interp.Round(time.Millisecond), total.Build.Round(time.Millisecond))
	if v := os.Getenv("TILEFUSE_CAMPAIGN_MATCH"); v != "" {
		summary += fmt.Sprintf(", combinations matching %q", v)
	}
	if dataDep > 0 {
		summary += fmt.Sprintf(", data-dependent parts where the seed is a multiple of %d", dataDep)
	}
	t.Logf("campaign: %s", summary)
	if f := os.Getenv("TILEFUSE_CAMPAIGN_LOG"); f != "" && long {
		// The long run's ledger: one line per run, so that runs split
		// over days add up to the documented total.
		line := fmt.Sprintf("%s %s\n", time.Now().UTC().Format(time.DateOnly), summary)
		lf, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			_, err = lf.WriteString(line)
			if cerr := lf.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			t.Errorf("TILEFUSE_CAMPAIGN_LOG: %v", err)
		}
	}
}

// rotate picks per of the combinations, starting at a place that moves
// with the seed, so that consecutive programs cover them all.
func rotate(all []Combo, seed int64, per int) []Combo {
	if per >= len(all) {
		return all
	}
	out := make([]Combo, per)
	start := int((seed * int64(per)) % int64(len(all)))
	if start < 0 {
		start += len(all)
	}
	for i := range out {
		out[i] = all[(start+i)%len(all)]
	}
	return out
}

// known reports failures of bugs kept as skipped regression tests
// (regress_test.go), so that the campaign does not fail on them again.
func known(f Failure) bool {
	return false
}
