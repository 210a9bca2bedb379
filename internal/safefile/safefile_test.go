package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// entries lists a directory's names, to see that no temporary file is
// left.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWrite(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the target
		check func(t *testing.T, target string)
		err   string // part of the error, "" for none
	}{
		{"new file", func(t *testing.T, dir string) string { return filepath.Join(dir, "out.c") }, func(t *testing.T, target string) {
			fi, err := os.Stat(target)
			if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != NewPerm() {
				t.Errorf("stat %v, %v; want a regular file of mode %v", fi, err, NewPerm())
			}
		}, ""},
		{"existing file keeps its mode", func(t *testing.T, dir string) string {
			target := filepath.Join(dir, "out.c")
			os.WriteFile(target, []byte("old old old old"), 0o600)
			os.Chmod(target, 0o640)
			return target
		}, func(t *testing.T, target string) {
			if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
				t.Errorf("mode %v, want 0640", fi.Mode().Perm())
			}
		}, ""},
		{"symbolic link stays a link", func(t *testing.T, dir string) string {
			real := filepath.Join(dir, "real.c")
			os.WriteFile(real, []byte("old"), 0o644)
			link := filepath.Join(dir, "link.c")
			os.Symlink("real.c", link)
			return link
		}, func(t *testing.T, target string) {
			if fi, err := os.Lstat(target); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
				t.Errorf("the link became %v (%v)", fi.Mode(), err)
			}
		}, ""},
		{"fifo stays a fifo", func(t *testing.T, dir string) string {
			target := filepath.Join(dir, "pipe")
			if err := syscall.Mkfifo(target, 0o644); err != nil {
				t.Skip(err)
			}
			go func() { // the reader the writer waits for
				f, err := os.Open(target)
				if err == nil {
					buf := make([]byte, 100)
					for {
						if _, err := f.Read(buf); err != nil {
							break
						}
					}
					f.Close()
				}
			}()
			return target
		}, func(t *testing.T, target string) {
			if fi, err := os.Lstat(target); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
				t.Errorf("the fifo became %v (%v)", fi.Mode(), err)
			}
		}, ""},
		{"directory", func(t *testing.T, dir string) string {
			target := filepath.Join(dir, "sub")
			os.Mkdir(target, 0o755)
			return target
		}, nil, "is a directory"},
		{"no such directory", func(t *testing.T, dir string) string { return filepath.Join(dir, "no", "out.c") }, nil, "no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			target := tc.setup(t, dir)
			before := entries(t, dir)
			err := Write(target, []byte("new"))
			if tc.err != "" {
				want := "write " + target + ": " + tc.err
				if err == nil || err.Error() != want {
					t.Errorf("error %v, want %q", err, want)
				}
				if after := entries(t, dir); strings.Join(after, " ") != strings.Join(before, " ") {
					t.Errorf("files %v, were %v", after, before)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range entries(t, dir) {
				if strings.HasPrefix(name, ".") {
					t.Errorf("temporary file %s left", name)
				}
			}
			if tc.check != nil {
				tc.check(t, target)
			}
			if fi, _ := os.Lstat(target); fi.Mode().IsRegular() || fi.Mode()&fs.ModeSymlink != 0 {
				if data, _ := os.ReadFile(target); string(data) != "new" {
					t.Errorf("contents %q, want \"new\"", data)
				}
			}
		})
	}
}

// TestWriteDevices writes to /dev/null, which must stay a device, and to
// /dev/full, whose failure names the device.
func TestWriteDevices(t *testing.T) {
	for _, tc := range []struct{ name, err string }{
		{"/dev/null", ""},
		{"/dev/full", "write /dev/full: no space left on device"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := os.Stat(tc.name); err != nil {
				t.Skip(err)
			}
			err := Write(tc.name, []byte("data"))
			if got := errString(err); got != tc.err {
				t.Errorf("error %q, want %q", got, tc.err)
			}
			if fi, err := os.Stat(tc.name); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
				t.Errorf("%s is now %v (%v)", tc.name, fi.Mode(), err)
			}
		})
	}
}

// TestWriteAllFailure: when one of several files cannot be written, the
// others' existing contents stay and no temporary file is left.
func TestWriteAllFailure(t *testing.T) {
	for _, tc := range []struct {
		name string
		bad  func(t *testing.T, dir string) string
		err  string
	}{
		{"directory", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "keep.h")
			os.Mkdir(p, 0o755)
			return p
		}, "is a directory"},
		{"device that fails", func(t *testing.T, dir string) string {
			if _, err := os.Stat("/dev/full"); err != nil {
				t.Skip(err)
			}
			return "/dev/full"
		}, "no space left on device"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ll := filepath.Join(dir, "keep.ll")
			if err := os.WriteFile(ll, []byte("precious"), 0o644); err != nil {
				t.Fatal(err)
			}
			bad := tc.bad(t, dir)
			before := entries(t, dir)
			err := WriteAll([]File{{ll, []byte("new")}, {bad, []byte("new")}})
			if want := "write " + bad + ": " + tc.err; errString(err) != want {
				t.Errorf("error %q, want %q", errString(err), want)
			}
			if data, _ := os.ReadFile(ll); string(data) != "precious" {
				t.Errorf("keep.ll holds %q, want its old contents", data)
			}
			if after := entries(t, dir); strings.Join(after, " ") != strings.Join(before, " ") {
				t.Errorf("files %v, were %v", after, before)
			}
			var pe *fs.PathError
			if !errors.As(err, &pe) || pe.Path != bad {
				t.Errorf("error %#v is not a PathError about %s", err, bad)
			}
		})
	}
}

func TestFifoWaitsForReader(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
	got := make(chan string)
	go func() {
		data, _ := os.ReadFile(p)
		got <- string(data)
	}()
	if err := Write(p, []byte("through the pipe")); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != "through the pipe" {
			t.Errorf("read %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the reader got nothing")
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
