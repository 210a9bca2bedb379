package halide

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Package is the Debian package that provides Halide 14: its headers,
// libHalide14.so, the generator main GenGen.cpp and the autoscheduler
// plugins.
const Package = "libhalide14-0-dev"

// Install is an installed Halide and the C++ compiler that builds its
// generators.
type Install struct {
	// CXX is the C++ compiler driver (g++).
	CXX string
	// Include holds Halide.h; Lib is libHalide's shared library.
	Include, Lib string
	// GenGen is the generator main.
	GenGen string
	// Mullapudi, Adams and Li are the plugins of the autoschedulers
	// Mullapudi2016, Adams2019 (with its built-in weights) and Li2018,
	// where the package installs them: Find does not ask for them, a
	// pipeline scheduled by a missing one fails to build (Kernel).
	Mullapudi, Adams, Li string
	// Cache keeps built generators and pipelines between runs: Find sets
	// it to tilefuse/halide in the user's cache directory; empty means
	// tilefuse-halide in the temporary directory.
	Cache string
}

// MissingError says what Find could not find.
type MissingError struct {
	// What is the missing package or program: Package, or g++.
	What string
}

func (e *MissingError) Error() string { return e.What + " not found" }

// Find looks for Halide where Debian's package installs it and for g++.
// look finds a program on PATH by name, and checks that an absolute
// path exists (it returns an error otherwise): exec.LookPath for names,
// os.Stat for paths, or a fake in tests. The error is a *MissingError.
func Find(look func(string) (string, error)) (*Install, error) {
	lib := "/usr/lib/" + multiarch() + "/"
	in := &Install{
		Include:   "/usr/include/halide14",
		Lib:       lib + "libHalide14.so",
		GenGen:    "/usr/src/halide14/GenGen.cpp",
		Mullapudi: lib + "halide14/libautoschedule_mullapudi2016.so",
		Adams:     lib + "halide14/libautoschedule_adams2019.so",
		Li:        lib + "halide14/libautoschedule_li2018.so",
	}
	for _, f := range []string{filepath.Join(in.Include, "Halide.h"), in.Lib, in.GenGen} {
		if _, err := look(f); err != nil {
			return nil, &MissingError{What: Package}
		}
	}
	cxx, err := look("g++")
	if err != nil {
		return nil, &MissingError{What: "g++"}
	}
	in.CXX = cxx
	if dir, err := os.UserCacheDir(); err == nil {
		in.Cache = filepath.Join(dir, "tilefuse", "halide")
	}
	return in, nil
}

// multiarch is Debian's directory name for the machine's libraries.
func multiarch() string {
	switch runtime.GOARCH {
	case "arm64":
		return "aarch64-linux-gnu"
	case "386":
		return "i386-linux-gnu"
	}
	return "x86_64-linux-gnu"
}

// Schedule picks how a pipeline is scheduled.
type Schedule int

const (
	// Manual is the expert schedule written in the generator (Halide's
	// published app schedule where an app exists).
	Manual Schedule = iota
	// Auto is the Mullapudi2016 autoscheduler, given the benchmark's
	// sizes as estimates.
	Auto
	// Adams is the Adams2019 autoscheduler (a beam search guided by a
	// learned cost model; the weights built into the plugin), given the
	// same estimates.
	Adams
	// Li is the Li2018 autoscheduler (written for gradient pipelines,
	// a conservative one by its README: every function but the trivial
	// ones computed at root, parallelised and vectorised), given the
	// same estimates.
	Li
)

// Autoscheduler is the name Halide's generators know the schedule's
// autoscheduler by ("Mullapudi2016"); empty for Manual.
func (s Schedule) Autoscheduler() string {
	switch s {
	case Auto:
		return "Mullapudi2016"
	case Adams:
		return "Adams2019"
	case Li:
		return "Li2018"
	}
	return ""
}

func (s Schedule) String() string {
	if a := s.Autoscheduler(); a != "" {
		return a + " autoscheduler"
	}
	return "manual schedule"
}

// plugin is the file of the autoscheduler of s.
func (in *Install) plugin(s Schedule) string {
	switch s {
	case Auto:
		return in.Mullapudi
	case Adams:
		return in.Adams
	case Li:
		return in.Li
	}
	return ""
}

// src holds, for each pipeline NAME, the generator NAME.cpp and the
// wrapper NAME_wrap.c, and the wrappers' helpers tf_halide.h.
//
//go:embed src
var src embed.FS

// Generators lists the pipelines that have a generator, sorted.
func Generators() []string {
	entries, _ := fs.ReadDir(src, "src")
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), "_wrap.c"); ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// Has reports whether the pipeline name has a generator.
func Has(name string) bool { return slices.Contains(Generators(), name) }

// source reads one embedded file.
func source(name string) (string, error) {
	b, err := src.ReadFile("src/" + name)
	if err != nil {
		return "", fmt.Errorf("halide: no %s", name)
	}
	return string(b), nil
}
