package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/tilefuse/tilefuse/internal/ctool"
	"github.com/tilefuse/tilefuse/internal/safefile"
)

// Toolchain names the external programs that turn emitted IR into a
// running binary.
type Toolchain struct {
	// Opt and LLC are LLVM 14's optimizer and static compiler (the IR is
	// written with typed pointers, which later LLVMs no longer read).
	Opt, LLC string
	// CC is the C compiler driver: it compiles the harness and the
	// reference and links (gcc, or a cc that accepts gcc's flags).
	CC string
	// CPU is passed as -mcpu to opt and llc; empty means "native".
	CPU string
	// Split (llvm-split, from where opt is) and ObjCopy (binutils'
	// objcopy), when both are found, let a large module build in pieces
	// on Jobs workers (zero: one per CPU); without them it builds whole.
	Split, ObjCopy string
	Jobs           int
}

// llvmDir is where Debian's llvm-14 package keeps its unsuffixed tools.
const llvmDir = "/usr/lib/llvm-14/bin"

// MissingToolsError reports tools FindToolchain could not find, with the
// Debian packages that provide them.
type MissingToolsError struct {
	Tools    []string // e.g. "opt and llc (LLVM 14)"
	Packages []string // e.g. "llvm-14"
}

func (e *MissingToolsError) Error() string {
	return fmt.Sprintf("runner: %s not found (on Debian/Ubuntu: apt-get install %s)",
		strings.Join(e.Tools, " and "), strings.Join(e.Packages, " "))
}

// FindToolchain looks for opt and llc (plain names, then the -14
// suffixes, then /usr/lib/llvm-14/bin) and for a C compiler (cc, then
// gcc) on PATH. The error, a *MissingToolsError, names the packages to
// install.
func FindToolchain() (*Toolchain, error) {
	return findToolchain(exec.LookPath, llvmDir)
}

func findToolchain(look func(string) (string, error), dir string) (*Toolchain, error) {
	tc := &Toolchain{}
	// opt and llc come as a pair from one place, so that the bitcode
	// opt writes is one llc reads.
	for _, names := range [][2]string{{"opt", "llc"}, {"opt-14", "llc-14"}, {filepath.Join(dir, "opt"), filepath.Join(dir, "llc")}} {
		o, err1 := look(names[0])
		l, err2 := look(names[1])
		if err1 == nil && err2 == nil {
			tc.Opt, tc.LLC = o, l
			split := filepath.Join(filepath.Dir(o), "llvm-split"+strings.TrimPrefix(filepath.Base(o), "opt"))
			if s, err := look(split); err == nil {
				tc.Split = s
			}
			break
		}
	}
	if p, err := look("objcopy"); err == nil {
		tc.ObjCopy = p
	}
	for _, name := range []string{"cc", "gcc"} {
		if p, err := look(name); err == nil {
			tc.CC = p
			break
		}
	}
	miss := &MissingToolsError{}
	if tc.Opt == "" {
		miss.Tools = append(miss.Tools, "opt and llc (LLVM 14)")
		miss.Packages = append(miss.Packages, "llvm-14")
	}
	if tc.CC == "" {
		miss.Tools = append(miss.Tools, "a C compiler (cc or gcc)")
		miss.Packages = append(miss.Packages, "gcc")
	}
	if len(miss.Tools) > 0 {
		return nil, miss
	}
	return tc, nil
}

func (tc *Toolchain) cpu() string {
	if tc.CPU == "" {
		return "native"
	}
	return tc.CPU
}

// ToolError is a failed tool run, with the tool's own diagnostics.
type ToolError = ctool.Error

// VerifyIR checks that ir is well-formed LLVM IR (opt's verifier; llir
// does not type-check calls, so its output needs this).
func (tc *Toolchain) VerifyIR(ir string) error {
	dir, err := os.MkdirTemp("", "tilefuse-verify-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	f := filepath.Join(dir, "m.ll")
	if err := os.WriteFile(f, []byte(ir), 0o644); err != nil {
		return err
	}
	return ctool.Run(context.Background(), nil, tc.Opt, "-passes=verify", "-disable-output", f)
}

// Object builds ir into the object file obj: opt -O3, then llc -O3 with
// position-independent code, both for the CPU tc.CPU; a large module is
// built in pieces on several cores (objectSplit). obj appears only when
// the build succeeds.
func (tc *Toolchain) Object(ir, obj string) error {
	return tc.object(context.Background(), ir, obj)
}

// ObjectContext is Object under ctx, which kills opt or llc when it ends
// (the temporary directory is removed on every return).
func (tc *Toolchain) ObjectContext(ctx context.Context, ir, obj string) error {
	return tc.object(ctx, ir, obj)
}

func (tc *Toolchain) object(ctx context.Context, ir, obj string) error {
	dir, err := os.MkdirTemp("", "tilefuse-build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ll, tmp := filepath.Join(dir, "m.ll"), filepath.Join(dir, "m.o")
	if err := os.WriteFile(ll, []byte(ir), 0o644); err != nil {
		return err
	}
	if tc.canSplit(ir) {
		err = tc.objectSplit(ctx, dir, ll, ir, tmp)
	} else {
		err = tc.optLLC(ctx, []string{"-O3"}, ll, filepath.Join(dir, "m.bc"), tmp)
	}
	if err != nil {
		return err
	}
	return install(tmp, obj)
}

// install moves the finished file src to dst (safefile.Write: through a
// temporary file next to dst, so that dst is never half-written).
func install(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return safefile.Write(dst, data)
}

// link links objects into the executable bin, with OpenMP's runtime
// (libgomp, for the GOMP calls of parallel code), libm and libdl (the
// CUDA host code opens the driver with dlopen), then the flags extra.
func (tc *Toolchain) link(ctx context.Context, bin string, objs []string, extra ...string) error {
	args := append(append([]string{"-o", bin}, objs...), "-fopenmp", "-lm", "-ldl")
	return ctool.Run(ctx, nil, tc.CC, append(args, extra...)...)
}
