package pollytest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/polybench"
)

// The clients: clang-14 compiles PolyBench's C to IR, opt-14 runs Polly.
const (
	Clang = "clang-14"
	Opt   = "opt-14"
)

// Flags are the legacy pass manager's Polly options every step shares:
// value names in statement, array and parameter names, and every static
// control part modelled however small.
var Flags = []string{"-enable-new-pm=0", "-basic-aa", "-polly-use-llvm-names", "-polly-process-unprofitable"}

// Need skips the test where clang-14 and opt-14 are missing, and fails
// it under CI, where they are installed and the round trips must run.
func Need(t *testing.T) {
	t.Helper()
	for _, tool := range []string{Clang, Opt} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed; CI must run the Polly round trips", tool)
			}
			t.Skipf("%s not installed (Debian packages clang-14, llvm-14): Polly round trips not run", tool)
		}
	}
}

// Run runs a client in dir and fails the test if it fails: its output.
func Run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Export compiles kernel k's C to canonical IR in dir (k.ll) and has
// Polly export its static control parts: the IR and the JSCoPs' paths.
func Export(t *testing.T, k polybench.Kernel, dir string) (ll string, files []string) {
	t.Helper()
	src := strings.Replace(k.Source, "static\n", "", 1)
	if err := os.WriteFile(filepath.Join(dir, "k.c"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// No FMA contraction: the arrays are compared bit for bit.
	Run(t, dir, Clang, "-O0", "-Xclang", "-disable-O0-optnone", "-fno-discard-value-names", "-ffp-contract=off", "-S", "-emit-llvm", "k.c", "-o", "k0.ll")
	Run(t, dir, Opt, "-S", "-polly-canonicalize", "k0.ll", "-o", "k.ll")
	Run(t, dir, Opt, append(Flags, "-polly-export-jscop", "-disable-output", "k.ll")...)
	files, _ = filepath.Glob(filepath.Join(dir, k.Func+"___*.jscop"))
	if len(files) == 0 {
		t.Fatalf("Polly exported no static control part of %s", k.Func)
	}
	return filepath.Join(dir, "k.ll"), files
}

// Import has Polly import the JSCoPs dir/*.jscop.postfix into ll and
// generate code (dir/polly.ll): its log. Polly names the file it reads
// after the region as it is when its turn comes, and generating code for
// one region renames the blocks around the next (2mm's first region
// ends at for.cond28.preheader.region_entering once the second is
// done), so a file Polly cannot find is copied from the one exported
// for the region of the same entry block, and opt runs again.
func Import(t *testing.T, dir, ll, postfix string) string {
	t.Helper()
	args := append(Flags, "-S", "-polly-import-jscop", "-polly-import-jscop-postfix="+postfix, "-polly-codegen", ll, "-o", "polly.ll")
	reading := regexp.MustCompile(`from '\./([^']+)'`)
	for range 4 {
		cmd := exec.Command(Opt, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		log := string(out)
		if err == nil {
			return log
		}
		reads := reading.FindAllStringSubmatch(log, -1)
		if !strings.Contains(log, "File could not be read") || len(reads) == 0 {
			t.Fatalf("%s %s: %v\n%s", Opt, strings.Join(args, " "), err, log)
		}
		missing := reads[len(reads)-1][1]
		entry, _, _ := strings.Cut(missing, "---")
		from, _ := filepath.Glob(filepath.Join(dir, globQuote(entry)+"---*.jscop."+postfix))
		if len(from) != 1 {
			t.Fatalf("Polly asks for %s; exported for its entry block: %v\n%s", missing, from, log)
		}
		data, err := os.ReadFile(from[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, missing), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("Polly still misses JSCoP files after 4 runs")
	return ""
}

// globQuote escapes the pattern characters of name.
func globQuote(name string) string {
	r := strings.NewReplacer("*", `\*`, "?", `\?`, "[", `\[`, `\`, `\\`)
	return r.Replace(name)
}
