// Command tilefuse is the command line of the tilefuse polyhedral compiler.
//
// It owns argument handling, help texts and exit statuses: 0 on success,
// 1 when a check fails, 2 on bad input or usage. Bad input is reported as
// one line, file:line:col: message, on standard error, never as a panic.
//
// Usage:
//
//	tilefuse scop SOURCE          show the program model (domains, schedules, accesses)
//	tilefuse tree SOURCE          schedule a program and print its schedule tree
//	tilefuse check-tree SOURCE T  check a schedule tree against the dependences
//	tilefuse calc [FILE]          evaluate an isl-notation calculator script
//	tilefuse help [COMMAND]       show help
//
// The calculator language is described in package tilefuse/presburger/calc.
// TILEFUSE_CPUPROFILE=FILE writes a CPU profile of the command to FILE.
package main
