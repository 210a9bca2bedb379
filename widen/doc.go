// Package widen stores a small-integer lookup table as 32-bit integers
// where the program reads it through data-dependent subscripts (a
// gather), so that the vectorizer can use the machine's gather
// instructions: x86's vpgatherdd loads 32-bit lanes, and a table of
// bytes or 16-bit values read through a vector of indices is otherwise
// loaded one lane at a time (an extract, a load and an insert per lane).
//
// PolyMage's camera_pipe is the case: its last stage reads the 8-bit
// tone curve at the corrected pixel's value, curve[corrected(c, x, y)],
// and that lookup was a third of the pipeline's time. Widened, the
// table takes 4 bytes per entry (64 KB of bytes become 256 KB) and the
// lookup vectorizes as a gather (camera_pipe under post: 11.4 -> 8.7 ms,
// 2 threads).
//
// An array is widened when it is a temporary (neither live-in nor
// live-out: no caller sees its layout), its element type is an integer
// type narrower than 32 bits, and some statement reads it through a
// subscript that itself reads an array. Every store converts the stored
// value to the old type (as the store did) and then to i32; every load
// converts back: the conversions are exact for values of the old type,
// so every value the program computes is unchanged, bit for bit.
package widen
