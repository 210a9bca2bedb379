// Package openscop writes a tilefuse program as OpenScop, the text format
// that Clan, Candl, Pluto and Clint exchange, and reads OpenScop back.
//
// Write puts out the context, and per statement its domain, its
// scattering (the original schedule, or a tree's: WriteScattering) and
// its access relations, with the parameter names (<strings>), the array
// names (<arrays>) and each statement's iterators and body (<body>) as
// extensions. A relation row is OpenScop's: e/i (0 for an equality, 1
// for an inequality "expression >= 0"), then the coefficients of the
// output dimensions, the input dimensions, the local (existential)
// dimensions, the parameters and the constant. An access relation's
// first output dimension is the array's number in <arrays>, the
// subscripts follow; a scalar has no subscript. A union of several
// basic relations is written as the number of parts and each part, each
// with its own type line.
//
// Read parses that text (comments, the relation types, the extensions
// above; other extensions are skipped) into Relations and rebuilds the
// isl-notation sets and maps, so a written program can be compared with
// the one read back.
package openscop
