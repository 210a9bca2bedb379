package bench

import (
	"os"
	"runtime"
	"testing"
	"time"
)

func TestMachineParsing(t *testing.T) {
	cpuinfo := "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R)   Gold 6248 CPU @ 2.50GHz\nflags\t\t: fpu vme\n\nprocessor\t: 1\nmodel name\t: Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz\n"
	arm := "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n\nHardware\t: BCM2835\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4\n"
	for _, tc := range []struct{ name, in, want string }{
		{"x86", cpuinfo, "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz"},
		{"arm", arm, "BCM2835"},
		{"empty", "", ""},
	} {
		if got := cpuModel(tc.in); got != tc.want {
			t.Errorf("cpuModel(%s) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := memTotal("MemTotal:       16318324 kB\nMemFree:         1234 kB\n"); got != 16318324*1024 {
		t.Errorf("memTotal = %d", got)
	}
	if got := memTotal("MemFree: 1 kB\n"); got != 0 {
		t.Errorf("memTotal without MemTotal = %d", got)
	}
	opt := "LLVM (http://llvm.org/):\n  LLVM version 14.0.6\n  Optimized build.\n"
	if got := llvmVersion(opt); got != "14.0.6" {
		t.Errorf("llvmVersion = %q", got)
	}
	clang := "Debian clang version 14.0.6\nTarget: x86_64-pc-linux-gnu\n"
	if got := clangVersion(clang); got != "14.0.6" {
		t.Errorf("clangVersion = %q", got)
	}
	m := &Machine{CPU: "X", Cores: 1, Go: "go1.26", GCC: "12.2.0"}
	if got, want := m.String(), "X, 1 core; go1.26, gcc 12.2.0"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestDescribe reads this machine: the parts every platform has, and
// /proc's on Linux.
func TestDescribe(t *testing.T) {
	m := Describe(Tools{})
	if m.Cores != runtime.NumCPU() || m.Go != runtime.Version() || m.LLVM != "" {
		t.Errorf("Describe: %+v", m)
	}
	if d, err := time.Parse(time.RFC3339, m.Date); err != nil || time.Since(d) < 0 || time.Since(d) > time.Hour {
		t.Errorf("Describe's date %q is not now: %v", m.Date, err)
	}
	if _, err := os.Stat("/proc/cpuinfo"); err == nil && (m.Memory <= 0 || m.CPU == "") {
		t.Errorf("Describe on Linux: %+v", m)
	}
}
