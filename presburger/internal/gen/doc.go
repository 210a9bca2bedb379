// Package gen generates random calculator scripts (package presburger/calc)
// for differential tests of package presburger against isl.
//
// A Case is a few named literals and one printed expression exercising one
// operation. Literals have 0 to 2 parameters, several disjuncts and spaces,
// named and unnamed tuples of up to 4 dimensions, affine tuple expressions
// in maps, existentials (plain and defined by floor), mod, floor, not and
// or, and coefficients up to ±20; they are kept small so isl answers fast.
// The same seed always gives the same case, and Shrinks offers smaller
// variants so a failing case can be minimised.
package gen
