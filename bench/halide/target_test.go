package halide

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The flags lines of real CPUs' /proc/cpuinfo.
const (
	// zen4 is an AMD EPYC (Zen 4) VM: AVX-512 with VNNI and BF16, no
	// AVX-VNNI, AVX-512 FP16 or AMX.
	zen4 = "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid extd_apicid tsc_known_freq pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand hypervisor lahf_lm cmp_legacy cr8_legacy abm sse4a misalignsse 3dnowprefetch osvw topoext cpuid_fault vmmcall fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves avx512_bf16 clzero xsaveerptr arat avx512vbmi umip avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq rdpid fsrm"
	// sapphireRapids is an Intel Xeon of the 4th generation (Sapphire
	// Rapids) in a KVM guest, with AMX and AVX-512 FP16.
	sapphireRapids = "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ss ht syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid pni pclmulqdq monitor ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand hypervisor lahf_lm abm 3dnowprefetch cpuid_fault invpcid_single ssbd ibrs ibpb stibp ibrs_enhanced fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves avx_vnni avx512_bf16 wbnoinvd arat avx512vbmi umip pku ospke waitpkg avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq rdpid cldemote movdiri movdir64b fsrm md_clear serialize tsxldtrk arch_lbr amx_bf16 avx512_fp16 amx_tile amx_int8 arch_capabilities"
)

// drop removes flags from a flags line.
func drop(line string, flags ...string) string {
	var out []string
	for _, f := range strings.Fields(line) {
		keep := true
		for _, d := range flags {
			keep = keep && f != d
		}
		if keep {
			out = append(out, f)
		}
	}
	return strings.Join(out, " ")
}

func TestTargetFor(t *testing.T) {
	tests := []struct {
		name, goos, goarch, flags, want string
	}{
		// Halide 14's host detection gives Zen 4 avx512_sapphirerapids
		// (its pipelines die of SIGILL); the flags give cannonlake.
		{"zen4", "linux", "amd64", zen4, "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41"},
		{"sapphire rapids", "linux", "amd64", sapphireRapids,
			"x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_sapphirerapids-avx512_skylake-f16c-fma-sse41"},
		// One missing extension drops the features that need it, and
		// those alone.
		{"no amx", "linux", "amd64", drop(sapphireRapids, "amx_tile"),
			"x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41"},
		{"no ifma", "linux", "amd64", drop(zen4, "avx512ifma"), "x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41"},
		{"no avx512vl", "linux", "amd64", drop(zen4, "avx512vl"), "x86-64-linux-avx-avx2-avx512-f16c-fma-sse41"},
		// A Haswell-class CPU: no AVX-512 at all.
		{"avx2 only", "linux", "amd64", drop(zen4, "avx512f"), "x86-64-linux-avx-avx2-f16c-fma-sse41"},
		// Halide's own host detection wants rdrand for avx2 too (LLVM's
		// haswell has it).
		{"no rdrand", "linux", "amd64", drop(zen4, "rdrand"), "x86-64-linux-avx-f16c-fma-sse41"},
		{"sse2 only", "linux", "amd64", "fpu sse sse2 lm", "x86-64-linux"},
		{"no flags", "linux", "amd64", "", "x86-64-linux"},
		{"osx", "darwin", "amd64", zen4, "x86-64-osx-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41"},
		{"arm64", "linux", "arm64", "fp asimd evtstrm aes pmull sha1 sha2 crc32", "arm-64-linux"},
		{"unknown os", "plan9", "amd64", zen4, "host"},
		{"unknown arch", "linux", "riscv64", "", "host"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TargetFor(tt.goos, tt.goarch, strings.Fields(tt.flags)); got != tt.want {
				t.Errorf("TargetFor = %q\nwant          %q", got, tt.want)
			}
		})
	}
}

// TestFeatureNeeds checks the features' flag lists against each other:
// a stronger feature needs what the weaker one it builds on needs.
func TestFeatureNeeds(t *testing.T) {
	needs := map[string][]string{}
	for _, f := range x86Features {
		needs[f.name] = f.needs
	}
	for _, pair := range [][2]string{
		{"sse41", "avx"}, {"avx", "avx2"}, {"fma", "avx2"}, {"f16c", "avx2"}, {"avx2", "avx512"},
		{"avx512", "avx512_skylake"}, {"avx512", "avx512_knl"},
		{"avx512_skylake", "avx512_cannonlake"}, {"avx512_cannonlake", "avx512_sapphirerapids"},
	} {
		weak, strong := pair[0], pair[1]
		for _, n := range needs[weak] {
			found := false
			for _, m := range needs[strong] {
				found = found || m == n
			}
			if !found {
				t.Errorf("%s needs %s, %s does not", weak, n, strong)
			}
		}
	}
}

func TestCPUFlags(t *testing.T) {
	cpuinfo := "processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu sse2 avx2\nbugs\t\t: sysret_ss_attrs\n\nprocessor\t: 1\nflags\t\t: fpu\n"
	if diff := cmp.Diff([]string{"fpu", "sse2", "avx2"}, CPUFlags(cpuinfo)); diff != "" {
		t.Errorf("CPUFlags (-want +got):\n%s", diff)
	}
	if got := CPUFlags("processor\t: 0\nFeatures\t: fp asimd\n"); got != nil {
		t.Errorf("CPUFlags of an ARM cpuinfo = %q, want nil", got)
	}
}

// TestHostTarget checks the shape of this machine's target and that
// Options.Target adds strict_float to it (TestPipelines builds and runs
// pipelines for it: the generator parses it, and the code runs).
func TestHostTarget(t *testing.T) {
	got := HostTarget()
	if got != "host" && !strings.HasPrefix(got, "x86-64-") && !strings.HasPrefix(got, "arm-64-") {
		t.Errorf("HostTarget = %q", got)
	}
	if o := (Options{StrictFloat: true}); o.Target() != got+"-strict_float" {
		t.Errorf("Options.Target with StrictFloat = %q, want %q", o.Target(), got+"-strict_float")
	}
}
