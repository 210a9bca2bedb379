// Package safefile writes the files a user names (-o and the like) so
// that nothing is lost: a regular file is written to a temporary file
// beside it and renamed over it only when complete; a device, a FIFO or
// another file that is not regular (/dev/null, /dev/stdout) is written in
// place and never replaced; a failure removes only the temporary files
// and leaves every target as it was; errors name the user's path, never
// the temporary file's.
package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Perm is the permission of a new file, less the umask: that of a file
// the shell's '>' or os.WriteFile(name, data, 0o644) creates. A regular
// file that exists keeps its own.
const Perm fs.FileMode = 0o644

// File is one file to write.
type File struct {
	Name string
	Data []byte
}

// Write writes data to the file name (see WriteAll).
func Write(name string, data []byte) error {
	return WriteAll([]File{{name, data}})
}

// WriteAll writes every file, all or (nearly) nothing: first each
// regular file (or one that does not exist yet) goes to a temporary file
// in its directory, then the files that are not regular are written in
// place (so are the regular files reached through /dev and /proc, such
// as /dev/stdout redirected to a file), then the temporary files are renamed over their targets. A
// failure before the renames removes the temporary files and leaves
// every regular target untouched; a target that is a directory is an
// error before anything is written. A symbolic link to a regular file
// stays a link: the file it points to is replaced. Errors are
// *os.PathError with the user's path.
func WriteAll(files []File) (err error) {
	type plan struct {
		File
		target string // where the temporary file goes: name, symbolic links resolved
		tmp    string // the temporary file; "" for a file written in place
		perm   fs.FileMode
	}
	plans := make([]plan, len(files))
	defer func() {
		if err != nil {
			for _, p := range plans {
				if p.tmp != "" {
					os.Remove(p.tmp)
				}
			}
		}
	}()
	// Look at every target before writing anything.
	for i, f := range files {
		p := plan{File: f, target: f.Name, perm: Perm &^ umask()}
		fi, err := os.Stat(f.Name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return pathError(f.Name, err)
		case fi.IsDir():
			return pathError(f.Name, syscall.EISDIR)
		case fi.Mode().IsRegular() && !special(f.Name):
			p.perm = fi.Mode().Perm()
			if t, err := filepath.EvalSymlinks(f.Name); err == nil {
				p.target = t
			}
		default:
			p.target = "" // a device, a FIFO, a socket: written in place
		}
		plans[i] = p
	}
	for i := range plans {
		p := &plans[i]
		if p.target == "" {
			continue
		}
		if p.tmp, err = writeTemp(p.target, p.Data, p.perm); err != nil {
			return pathError(p.Name, err)
		}
	}
	for _, p := range plans {
		if p.target == "" {
			if err := writeInPlace(p.Name, p.Data); err != nil {
				return pathError(p.Name, err)
			}
		}
	}
	for i := range plans {
		p := &plans[i]
		if p.tmp == "" {
			continue
		}
		if err := os.Rename(p.tmp, p.target); err != nil {
			return pathError(p.Name, err)
		}
		p.tmp = ""
	}
	return nil
}

// special reports whether name lies in /dev or /proc, whose links
// (/dev/stdout, /proc/self/fd/1) lead to files that others hold open,
// such as a shell's redirection to a regular file: those are written in
// place, or the writer would replace the file under its holder.
func special(name string) bool {
	abs, err := filepath.Abs(name)
	if err != nil {
		return false
	}
	return strings.HasPrefix(abs, "/dev/") || strings.HasPrefix(abs, "/proc/")
}

// writeTemp writes data to a new temporary file beside target with
// permission perm and returns its name.
func writeTemp(target string, data []byte, perm fs.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

// writeInPlace writes data to a file that is not regular: a device or a
// FIFO (the open waits for a reader).
func writeInPlace(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// pathError is err about the user's path name: the underlying error of
// an *os.PathError or *os.LinkError (which may name a temporary file)
// under the user's path.
func pathError(name string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return &fs.PathError{Op: "write", Path: name, Err: err}
}

var (
	umaskOnce  sync.Once
	umaskValue fs.FileMode
)

// umask is the process's file mode creation mask, read from
// /proc/self/status (setting it to read it back would race with other
// goroutines creating files); 022 where it cannot be read.
func umask() fs.FileMode {
	umaskOnce.Do(func() {
		umaskValue = 0o022
		data, err := os.ReadFile("/proc/self/status")
		if err != nil {
			return
		}
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "Umask:"); ok {
				if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
					umaskValue = fs.FileMode(m) & fs.ModePerm
				}
			}
		}
	})
	return umaskValue
}

// NewPerm is the permission WriteAll gives a file it creates: Perm less
// the umask.
func NewPerm() fs.FileMode { return Perm &^ umask() }
