// Package compiler is tilefuse's spine: Compile takes a program and
// Options and runs the stages in order,
//
//	schedule → tile → fuse → map → AST → emit
//
// keeping every intermediate value on the Result (the tree after each
// stage, the AST, the LLVM IR module, and each stage's time), so that a
// researcher can stop anywhere (Options.Stop), look, change one decision
// and continue from a tree of their own (Options.Tree), as Halide's
// lowering passes allow. The command line, the benchmark and the runner
// call it; nothing else assembles the stages.
//
// The stages:
//
//   - schedule: first the program's rewrites (package delicm's scalars
//     mapped onto array elements; package transpose's copies, min and
//     post; package inline's stages, post; package widen's gathered
//     tables, on the CPU), then the original program order (strategy
//     none) or the
//     Pluto-style scheduler with a fusion heuristic (min, smart, max; post
//     starts from min, the conservative schedule); see package scheduler. A GPU target keeps each band's members in
//     the hyperplanes' order (the mapping takes the leading coincident
//     ones); the CPU moves the member of best locality innermost.
//   - tile: package tiling's policy (Options.Tile).
//   - fuse: post-tiling fusion (package fusion: strategy post tiles the
//     live-out spaces here, so the tile stage passes its tree on, and the
//     result is checked by dataflow, scheduler.CheckFlow); the Pluto-style
//     strategies fuse while scheduling, so this stage passes their trees
//     on unchanged. Strategy schedule builds the tree of the pipeline's
//     own Halide-style call schedule here (fusion.Scheduled, after
//     inlining what it inlines), checked the same way; its parallel
//     loops are the ones it marks, not every outermost coincident loop.
//   - map: for the GPU targets, package gpumap's kernel and thread marks;
//     the CPU's parallel loops are the AST's outermost coincident loops
//     (Options.Parallel).
//   - AST: package ast.
//   - emit: package emit (LLVM IR for the CPU, NVPTX kernels with host
//     code for CUDA, or the kernel mapping emulated on the CPU).
//
// Compile honours its context: a deadline or a cancellation stops the
// presburger operations of the stage in progress through their operation
// budget (presburger.WatchContext), and Compile returns the context's
// error. Because that budget is process-wide, compilations that carry a
// cancellable context run one at a time; the others run concurrently.
//
// Every stage is bounded by work as well as by the context: the
// scheduler by its budget (Options.ScheduleWork), AST generation by the
// size of the code (Options.MaxNodes), every presburger operation by its
// steps and pieces (Options.MaxOps, MaxPieces). A limit reached is a
// *LimitError that names the limit to raise (the Options field and the
// flag of the tilefuse command).
package compiler
