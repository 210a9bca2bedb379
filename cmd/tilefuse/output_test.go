package main

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tilefuse/tilefuse/internal/safefile"
)

// fifo makes a FIFO at name with a reader that drains it, or skips.
func fifo(t *testing.T, name string) {
	t.Helper()
	if err := syscall.Mkfifo(name, 0o644); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	go func() {
		if f, err := os.Open(name); err == nil {
			io.Copy(io.Discard, f)
			f.Close()
		}
	}()
}

// TestOutputNotReplaced: -o onto a device or a FIFO writes into it and
// leaves it what it was, never a regular file.
func TestOutputNotReplaced(t *testing.T) {
	for _, tc := range []struct {
		name      string
		toolchain bool
		// setup makes what the command writes to and returns the -o
		// argument and the files that must stay what they are.
		setup func(t *testing.T, dir string) (out string, special []string)
		args  []string // the command, then its arguments (-o OUT goes after the command)
	}{
		{"ast onto /dev/null", false, func(t *testing.T, dir string) (string, []string) {
			return "/dev/null", []string{"/dev/null"}
		}, []string{"ast", "polybench/gemm"}},
		{"ast onto a fifo", false, func(t *testing.T, dir string) (string, []string) {
			p := filepath.Join(dir, "pipe")
			fifo(t, p)
			return p, []string{p}
		}, []string{"ast", "--c", "polybench/gemm"}},
		{"compile onto a fifo", false, func(t *testing.T, dir string) (string, []string) {
			p := filepath.Join(dir, "keep")
			fifo(t, p+".ll")
			return p, []string{p + ".ll"}
		}, []string{"compile", "polybench/gemm"}},
		{"compile -c onto /dev/null", true, func(t *testing.T, dir string) (string, []string) {
			return "/dev/null", []string{"/dev/null"}
		}, []string{"compile", "-c", "polybench/gemm"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.toolchain {
				needToolchain(t)
			}
			dir := t.TempDir()
			out, special := tc.setup(t, dir)
			modes := map[string]fs.FileMode{}
			for _, s := range special {
				fi, err := os.Stat(s)
				if err != nil {
					t.Skip(err)
				}
				modes[s] = fi.Mode().Type()
			}
			args := append([]string{tc.args[0], "-o", out}, tc.args[1:]...)
			if _, stderr, status := runCmd("", args...); status != exitOK {
				t.Fatalf("status %d: %s", status, stderr)
			}
			for _, s := range special {
				fi, err := os.Lstat(s)
				if err != nil || fi.Mode().Type() != modes[s] {
					t.Errorf("%s was %v, is now %v (%v)", s, modes[s], fi.Mode().Type(), err)
				}
			}
			noTemporaries(t, dir)
		})
	}
}

// noTemporaries fails the test if dir holds a file a writer left behind.
func noTemporaries(t *testing.T, dir string) {
	t.Helper()
	es, _ := os.ReadDir(dir)
	for _, e := range es {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file %s left in %s", e.Name(), dir)
		}
	}
}

// TestOutputFailure: a write that fails changes nothing already there
// (a failed compile -o keep leaves keep.ll as it was), leaves no
// temporary file, and its message names the user's path.
func TestOutputFailure(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string) (out, bad string)
		args  []string
		msg   string // after the path of the file that failed
	}{
		{"compile: keep.h is a directory", func(t *testing.T, dir string) (string, string) {
			os.Mkdir(filepath.Join(dir, "keep.h"), 0o755)
			return filepath.Join(dir, "keep"), filepath.Join(dir, "keep.h")
		}, []string{"compile", "polybench/gemm"}, ": is a directory"},
		{"compile: no such directory", func(t *testing.T, dir string) (string, string) {
			return filepath.Join(dir, "no", "keep"), filepath.Join(dir, "no", "keep.ll")
		}, []string{"compile", "polybench/gemm"}, ": no such file or directory"},
		{"compile: keep.h onto /dev/full", func(t *testing.T, dir string) (string, string) {
			if _, err := os.Stat("/dev/full"); err != nil {
				t.Skip(err)
			}
			if err := os.Symlink("/dev/full", filepath.Join(dir, "keep.h")); err != nil {
				t.Skip(err)
			}
			return filepath.Join(dir, "keep"), filepath.Join(dir, "keep.h")
		}, []string{"compile", "polybench/gemm"}, ": no space left on device"},
		{"ast: a directory", func(t *testing.T, dir string) (string, string) {
			return dir, dir
		}, []string{"ast", "polybench/gemm"}, ": is a directory"},
		{"ast: /dev/full", func(t *testing.T, dir string) (string, string) {
			if _, err := os.Stat("/dev/full"); err != nil {
				t.Skip(err)
			}
			return "/dev/full", "/dev/full"
		}, []string{"ast", "polybench/gemm"}, ": no space left on device"},
		{"ast: read-only directory", func(t *testing.T, dir string) (string, string) {
			ro := filepath.Join(dir, "ro")
			os.Mkdir(ro, 0o555)
			if f, err := os.Create(filepath.Join(ro, "probe")); err == nil {
				f.Close()
				t.Skip("the directory is writable (root)")
			}
			return filepath.Join(ro, "out.c"), filepath.Join(ro, "out.c")
		}, []string{"ast", "polybench/gemm"}, ": permission denied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			// A keep.ll from before, which must survive.
			keep := filepath.Join(dir, "keep.ll")
			if err := os.WriteFile(keep, []byte("precious"), 0o600); err != nil {
				t.Fatal(err)
			}
			out, bad := tc.setup(t, dir)
			args := append([]string{tc.args[0], "-o", out}, tc.args[1:]...)
			stdout, stderr, status := runCmd("", args...)
			if status == exitOK || stdout != "" || strings.Count(stderr, "\n") != 1 {
				t.Errorf("status %d, stdout %q, stderr %q; want a failure in one line", status, stdout, stderr)
			}
			if !strings.Contains(stderr, bad+tc.msg) {
				t.Errorf("stderr %q does not say %q", stderr, bad+tc.msg)
			}
			if strings.Contains(stderr, ".tmp-") || strings.Contains(stderr, ".tilefuse-") {
				t.Errorf("stderr %q names a temporary file", stderr)
			}
			if fi, err := os.Lstat(keep); err == nil && fi.Mode().IsRegular() {
				if data, _ := os.ReadFile(keep); string(data) != "precious" {
					t.Errorf("keep.ll holds %q, want its old contents", data)
				}
				if fi.Mode().Perm() != 0o600 {
					t.Errorf("keep.ll has mode %v, was 0600", fi.Mode().Perm())
				}
			}
			noTemporaries(t, dir)
			noTemporaries(t, filepath.Dir(out))
		})
	}
}

// TestOutputModes: the files ast and compile create get one mode,
// safefile.NewPerm (0644 less the umask); one that exists keeps its own.
func TestOutputModes(t *testing.T) {
	if p := safefile.NewPerm(); p&0o600 != 0o600 {
		t.Fatalf("safefile.NewPerm() = %v: the owner cannot read and write", p)
	}
	for _, tc := range []struct {
		name      string
		toolchain bool
		args      []string // the command, then its arguments (-o OUT goes after the command)
		out       string   // the -o argument, in the test's directory
		files     []string // what is written
	}{
		{"ast", false, []string{"ast", "polybench/gemm"}, "gemm.c", []string{"gemm.c"}},
		{"ast --c", false, []string{"ast", "--c", "polybench/gemm"}, "gemm.c", []string{"gemm.c"}},
		{"compile", false, []string{"compile", "polybench/gemm"}, "gemm", []string{"gemm.ll", "gemm.h"}},
		{"compile -c", true, []string{"compile", "-c", "polybench/gemm"}, "gemm.o", []string{"gemm.o"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.toolchain {
				needToolchain(t)
			}
			dir := t.TempDir()
			args := append([]string{tc.args[0], "-o", filepath.Join(dir, tc.out)}, tc.args[1:]...)
			if _, stderr, status := runCmd("", args...); status != exitOK {
				t.Fatalf("status %d: %s", status, stderr)
			}
			for _, f := range tc.files {
				fi, err := os.Stat(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm() != safefile.NewPerm() {
					t.Errorf("%s: mode %v, want %v", f, fi.Mode().Perm(), safefile.NewPerm())
				}
			}
			// Written again over files of mode 0600: they keep it.
			for _, f := range tc.files {
				os.Chmod(filepath.Join(dir, f), 0o600)
			}
			if _, stderr, status := runCmd("", args...); status != exitOK {
				t.Fatalf("again: status %d: %s", status, stderr)
			}
			for _, f := range tc.files {
				if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Mode().Perm() != 0o600 {
					t.Errorf("%s rewritten: mode %v (%v), want 0600 kept", f, fi.Mode().Perm(), err)
				}
			}
			noTemporaries(t, dir)
		})
	}
}
