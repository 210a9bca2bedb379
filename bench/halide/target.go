package halide

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Halide 14's "host" target is not safe to run on: on an AMD Zen 4 CPU
// (AVX-512 with VNNI and BF16) its host detection adds
// avx512_sapphirerapids, which makes LLVM generate code for Intel's
// Sapphire Rapids (-mcpu=sapphirerapids: AVX-512 FP16, AVX-VNNI, AMX),
// instructions Zen 4 lacks: the pipeline dies of SIGILL. So the target
// is derived here from the flags Linux lists for the CPU, each Halide
// feature only when the CPU has every extension it lets LLVM use.

// x86Feature is one of Halide 14's x86 target features and the
// /proc/cpuinfo flags it needs.
type x86Feature struct {
	name string
	// needs are the CPU's flags, as Linux names them, that the feature
	// makes LLVM assume: Halide 14 (CodeGen_X86's mcpu and mattrs) sets
	// LLVM's CPU from the strongest feature (sse41 penryn, avx
	// corei7-avx, avx2 haswell, avx512_skylake skylake-avx512,
	// avx512_cannonlake cannonlake, avx512_sapphirerapids
	// sapphirerapids, avx512_knl knl) and adds the attributes of fma,
	// f16c and avx512. Each list holds the user-level instruction-set
	// extensions of that CPU in LLVM 14 (clang-14 -march=CPU -dM -E lists
	// them), those of the weaker features included. Left out are
	// instructions LLVM emits only from their own intrinsics, which
	// Halide's code never calls, and which Linux does not always list
	// (a VM hides some; no Sapphire Rapids lists avx512_vp2intersect
	// or ptwrite): system and OS state (xsave*, fsgsbase, invpcid, pku,
	// rdpid, pconfig, wbnoinvd, sgx, enqcmd, uintr, user_shstk),
	// synchronisation and cache control (serialize, tsxldtrk, waitpkg,
	// cldemote, movdiri, movdir64b, clflushopt, clwb, ptwrite) and
	// avx512_vp2intersect.
	needs []string
}

// Flags of the x86 CPUs the features stand for (see x86Feature).
var (
	penrynFlags    = []string{"pni", "ssse3", "sse4_1", "lahf_lm", "cx16"}
	corei7AVXFlags = append(slices.Clone(penrynFlags), "sse4_2", "popcnt", "pclmulqdq", "avx")
	haswellFlags   = append(slices.Clone(corei7AVXFlags), "avx2", "bmi1", "bmi2", "fma", "f16c", "abm", "movbe", "rdrand")
	skylakeFlags   = append(slices.Clone(haswellFlags), "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl",
		"adx", "aes", "3dnowprefetch", "rdseed")
	cannonlakeFlags = append(slices.Clone(skylakeFlags), "avx512ifma", "avx512vbmi", "sha_ni")
	sprFlags        = append(slices.Clone(cannonlakeFlags), "avx512_bf16", "avx512_vnni", "avx_vnni", "avx512_fp16",
		"avx512_bitalg", "avx512_vbmi2", "avx512_vpopcntdq", "gfni", "vaes", "vpclmulqdq",
		"amx_tile", "amx_int8", "amx_bf16")
	knlFlags = append(slices.Clone(haswellFlags), "avx512f", "avx512cd", "avx512pf", "avx512er",
		"adx", "aes", "3dnowprefetch", "rdseed")
)

// x86Features are Halide 14's x86 features in the order its target
// strings list them (Target::to_string sorts by name).
var x86Features = []x86Feature{
	{"avx", corei7AVXFlags},
	{"avx2", haswellFlags},
	{"avx512", append(slices.Clone(haswellFlags), "avx512f", "avx512cd")},
	{"avx512_cannonlake", cannonlakeFlags},
	{"avx512_knl", knlFlags},
	{"avx512_sapphirerapids", sprFlags},
	{"avx512_skylake", skylakeFlags},
	{"f16c", []string{"f16c"}},
	{"fma", []string{"fma"}},
	{"sse41", penrynFlags},
}

// TargetFor is the Halide target string of a CPU with the given
// /proc/cpuinfo flags under the Go OS and architecture goos and goarch:
// "x86-64-linux-avx-avx2-...", each x86 feature present only when the
// CPU has every flag it needs (the strongest of them sets LLVM's CPU).
// An OS or architecture Halide's host detection does not know on Linux
// terms is "host", Halide's own choice.
func TargetFor(goos, goarch string, flags []string) string {
	osName := map[string]string{"linux": "linux", "darwin": "osx", "windows": "windows"}[goos]
	if osName == "" {
		return "host"
	}
	switch goarch {
	case "amd64":
	case "arm64":
		// Halide 14's host detection adds no ARM feature on these
		// systems: the base target is the host.
		return "arm-64-" + osName
	default:
		return "host"
	}
	have := map[string]bool{}
	for _, f := range flags {
		have[f] = true
	}
	parts := []string{"x86-64", osName}
	for _, f := range x86Features {
		ok := true
		for _, n := range f.needs {
			ok = ok && have[n]
		}
		if ok {
			parts = append(parts, f.name)
		}
	}
	return strings.Join(parts, "-")
}

// CPUFlags are the flags of the first processor in /proc/cpuinfo's text
// (its "flags" line on x86); nil when there is none.
func CPUFlags(cpuinfo string) []string {
	for _, line := range strings.Split(cpuinfo, "\n") {
		key, val, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(key) == "flags" {
			return strings.Fields(val)
		}
	}
	return nil
}

var hostTarget = sync.OnceValue(func() string {
	// Without /proc/cpuinfo (not Linux) an x86 target has no feature:
	// slow, but it runs.
	b, _ := os.ReadFile("/proc/cpuinfo")
	return TargetFor(runtime.GOOS, runtime.GOARCH, CPUFlags(string(b)))
})

// HostTarget is the Halide target of this machine's CPU: TargetFor of
// its /proc/cpuinfo flags.
func HostTarget() string { return hostTarget() }
