// Package polymage holds the PolyMage benchmark pipelines (Mullapudi,
// Vasista and Bondhugula, ASPLOS 2015) written with package frontend/dsl:
// unsharp mask, bilateral grid, Harris corner detection, the camera
// pipeline, pyramid blending, multiscale interpolation and local
// Laplacian filters.
//
// Each pipeline is a function that builds its program (*scop.Program),
// with size parameters defaulting to PolyMage's benchmark sizes, and an
// Entry in the registry (All, Lookup) with those sizes, a small size for
// tests, PolyMage's stage count and a generator of deterministic inputs
// (Entry.Inputs; Synthetic, Bayer, and LoadPNG for real images).
//
// The pipelines follow PolyMage's specifications (its
// polymage_*.py files): the same stages, in the same order, with the same
// arithmetic and the same ghost zones (images carry the border their
// stencils read, functions are defined where their inputs are). Each
// pipeline's documentation lists its stages and says where it departs
// from PolyMage and why: chiefly, PolyMage's float parameters (weights,
// thresholds, colour temperature) are constants here, since the DSL's
// parameters are integer sizes, and domains are made exact where
// PolyMage's read outside what a stage defines.
//
// Files: each pipeline registers itself in an init function of its own
// file (register), so that pipelines are added without editing a shared
// list. Arrays follow the DSL's storage rule: a function over [lo, hi)
// stores coordinate v at index v - lo, row-major, the first variable
// outermost.
package polymage
