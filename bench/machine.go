package bench

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Machine describes the computer and the tools a table was made with.
type Machine struct {
	// CPU is the model name from /proc/cpuinfo.
	CPU string `json:"cpu"`
	// Cores is the number of logical CPUs Go sees (runtime.NumCPU).
	Cores int `json:"cores"`
	// Memory is the total memory in bytes (MemTotal of /proc/meminfo).
	Memory int64 `json:"memory_bytes"`
	// OS is GOOS/GOARCH and the kernel release.
	OS string `json:"os"`
	// Go, LLVM, GCC and Clang are the versions of the Go runtime, of
	// opt (LLVM 14), of gcc and of clang-14 (empty when not installed).
	Go    string `json:"go"`
	LLVM  string `json:"llvm,omitempty"`
	GCC   string `json:"gcc,omitempty"`
	Clang string `json:"clang,omitempty"`
	// Bandwidth is the streaming bandwidth measured at the start of the
	// run, in bytes per second, with all the run's threads (0: not
	// measured).
	Bandwidth float64 `json:"stream_bytes_per_s,omitempty"`
	// Date is when the machine was described (the run's start), UTC in
	// RFC 3339: the chart's caption dates the run with it.
	Date string `json:"date,omitempty"`
}

func (m *Machine) String() string {
	var parts []string
	cpu := m.CPU
	if cpu == "" {
		cpu = "unknown CPU"
	}
	parts = append(parts, fmt.Sprintf("%s, %d %s", cpu, m.Cores, plural(m.Cores, "core", "cores")))
	if m.Memory > 0 {
		parts[0] += fmt.Sprintf(", %.1f GiB", float64(m.Memory)/(1<<30))
	}
	if m.OS != "" {
		parts = append(parts, m.OS)
	}
	tools := []string{m.Go}
	if m.LLVM != "" {
		tools = append(tools, "LLVM "+m.LLVM)
	}
	if m.GCC != "" {
		tools = append(tools, "gcc "+m.GCC)
	}
	if m.Clang != "" {
		tools = append(tools, "clang "+m.Clang)
	}
	parts = append(parts, strings.Join(tools, ", "))
	if m.Bandwidth > 0 {
		parts = append(parts, fmt.Sprintf("streaming bandwidth %.1f GB/s", m.Bandwidth/1e9))
	}
	return strings.Join(parts, "; ")
}

// Tools names the programs whose versions Describe asks (paths or names
// on PATH; empty ones are skipped).
type Tools struct {
	Opt, GCC, Clang string
}

// Describe gathers the machine's description: /proc/cpuinfo and
// /proc/meminfo (Linux; left empty elsewhere), and the tools' versions.
func Describe(tools Tools) *Machine {
	m := &Machine{Cores: runtime.NumCPU(), Go: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH,
		Date: time.Now().UTC().Format(time.RFC3339)}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		m.CPU = cpuModel(string(b))
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		m.Memory = memTotal(string(b))
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.OS += ", Linux " + strings.TrimSpace(string(b))
	}
	if tools.Opt != "" {
		m.LLVM = llvmVersion(toolOutput(tools.Opt, "--version"))
	}
	if tools.GCC != "" {
		m.GCC = strings.TrimSpace(toolOutput(tools.GCC, "-dumpfullversion"))
	}
	if tools.Clang != "" {
		m.Clang = clangVersion(toolOutput(tools.Clang, "--version"))
	}
	return m
}

// toolOutput runs a version query, giving it a few seconds.
func toolOutput(name string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// cpuModel is the first "model name" of /proc/cpuinfo (x86), or else its
// "Hardware"/"cpu model"/"Model" line (other architectures).
func cpuModel(cpuinfo string) string {
	found := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(cpuinfo))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.Join(strings.Fields(v), " ")
		if _, seen := found[k]; !seen && v != "" {
			found[k] = v
		}
	}
	for _, k := range []string{"model name", "Hardware", "cpu model", "Model", "cpu"} {
		if v := found[k]; v != "" {
			return v
		}
	}
	return ""
}

// memTotal reads MemTotal (in kB) from /proc/meminfo, in bytes.
func memTotal(meminfo string) int64 {
	sc := bufio.NewScanner(strings.NewReader(meminfo))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb * 1024
		}
	}
	return 0
}

var (
	llvmVersionRE  = regexp.MustCompile(`LLVM version (\S+)`)
	clangVersionRE = regexp.MustCompile(`clang version (\S+)`)
)

// llvmVersion reads "LLVM version 14.0.6" from opt --version.
func llvmVersion(out string) string {
	if m := llvmVersionRE.FindStringSubmatch(out); m != nil {
		return m[1]
	}
	return ""
}

// clangVersion reads "clang version 14.0.6" from clang --version.
func clangVersion(out string) string {
	if m := clangVersionRE.FindStringSubmatch(out); m != nil {
		return m[1]
	}
	return ""
}
