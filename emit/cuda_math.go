package emit

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/scop"
)

// The kernels' math functions without a CUDA toolkit.
//
// The kernels call libdevice's names (__nv_expf, __nv_pow, ...), which
// CUDA's libdevice.10.bc defines. Debian has no libdevice, but its
// libclc-14 package ships libclc's OpenCL C library as NVPTX bitcode
// (/usr/lib/clc/nvptx64--nvidiacl.bc), whose functions use only LLVM's
// generic intrinsics and define every function the front ends accept under
// its OpenCL name, Itanium-mangled (expf is _Z3expf, pow on doubles
// _Z3powdd). LibclcShim writes the small module that defines each
// __nv_ name by a call to libclc's; llvm-link --only-needed of the kernels,
// the shim and libclc's bitcode gives a module whose PTX calls nothing
// external.
//
// Accuracy: libclc promises OpenCL's full-profile bounds (OpenCL C 1.2
// §7.4; in float exp, exp2, log, log2 ≤ 3 ulp, sin, cos ≤ 4, tan, tanh,
// atan ≤ 5, atan2 ≤ 6, pow ≤ 16). Measured against glibc's function of
// the same precision (TestLibclcAccuracy: the linked bitcode compiled for
// x86-64 with fmuladd fused as llc fuses it for NVPTX, 20,000 inputs per
// function over its useful range), every float and double function is
// within 1 ulp of glibc but tanf, tanhf, tanh and atan2f, within 2;
// log2 in double equals it. Denormal results are as on the host (sm_80
// PTX keeps denormals: no -nvptx-f32ftz).

// CUDAMathCalls returns the libdevice functions (__nv_...) the kernel
// module kernelIR declares, sorted.
func CUDAMathCalls(kernelIR string) []string {
	var out []string
	for _, m := range nvDecl.FindAllStringSubmatch(kernelIR, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

var nvDecl = regexp.MustCompile(`(?m)^declare [^@\n]*@(__nv_\w+)\(`)

// libclcFunc is the libclc function standing for a libdevice one.
type libclcFunc struct {
	mangled string
	t       scop.ElemType
	arity   int
}

// libclcFuncs maps each libdevice name the emitter can call (a library
// math function of scop.LibraryCall in float and double) to libclc's.
var libclcFuncs = func() map[string]libclcFunc {
	out := map[string]libclcFunc{}
	for fn, n := range scop.MathFuncs {
		if !scop.LibraryCall(fn) {
			continue
		}
		for _, t := range []scop.ElemType{scop.F32, scop.F64} {
			name, code := "__nv_"+fn, "d"
			if t == scop.F32 {
				name, code = name+"f", "f"
			}
			out[name] = libclcFunc{fmt.Sprintf("_Z%d%s%s", len(fn), fn, strings.Repeat(code, n)), t, n}
		}
	}
	return out
}()

// LibclcNames lists the libdevice functions LibclcShim provides, sorted.
func LibclcNames() []string {
	var out []string
	for name := range libclcFuncs {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// LibclcShim returns an NVPTX module defining each of the libdevice
// functions names by a call to libclc's, to link with libclc's
// nvptx64--nvidiacl.bc; the error names those it cannot provide.
func LibclcShim(names []string) (string, error) {
	var sb strings.Builder
	sb.WriteString("target datalayout = \"" + NVPTXDataLayout + "\"\ntarget triple = \"" + NVPTXTriple + "\"\n\n")
	var missing []string
	for _, name := range names {
		f, ok := libclcFuncs[name]
		if !ok {
			missing = append(missing, name)
			continue
		}
		ty := llType(f.t).LLString()
		params, args, types := make([]string, f.arity), make([]string, f.arity), make([]string, f.arity)
		for i := range params {
			params[i] = fmt.Sprintf("%s %%x%d", ty, i)
			args[i] = params[i]
			types[i] = ty
		}
		fmt.Fprintf(&sb, "define %s @%s(%s) {\n  %%r = call %s @%s(%s)\n  ret %s %%r\n}\n", ty, name, strings.Join(params, ", "), ty, f.mangled, strings.Join(args, ", "), ty)
		fmt.Fprintf(&sb, "declare %s @%s(%s)\n\n", ty, f.mangled, strings.Join(types, ", "))
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("no NVPTX code for %s (libclc has no counterpart)", strings.Join(missing, ", "))
	}
	return sb.String(), nil
}

// PTXExterns names the functions a PTX module declares .extern (calls the
// driver cannot resolve: it refuses the module).
func PTXExterns(ptx string) []string {
	var out []string
	for _, m := range ptxExtern.FindAllStringSubmatch(ptx, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

var ptxExtern = regexp.MustCompile(`(?m)^\s*\.extern\s+\.func\s+(?:\([^)]*\)\s*)?(\w+)`)
