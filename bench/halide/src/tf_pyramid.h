// The geometry of the ports' ringed pyramids, shared by the generators of
// local_laplacian and pyramid_blending: level l has rows >> l rows and
// cols >> l columns inside a ring of two pixels on every side, filtered
// stages are 0 on their ring, and reads are clamped to the box of what
// they read.
#ifndef TF_PYRAMID_H
#define TF_PYRAMID_H

#include "Halide.h"

#include <vector>

namespace tf {

struct Levels {
    Halide::Expr rows, cols; // of level 0, inside the ring
    Halide::Var x, y;        // the column and the row

    // inside is whether (x, y) is off the ring of a stage whose rows are
    // of level rl and columns of level cl.
    Halide::Expr inside(int rl, int cl) const {
        return x >= 2 && x < (cols >> cl) + 2 && y >= 2 && y < (rows >> rl) + 2;
    }

    // ring0 is v inside the stage's box, 0 on its ring. The test is
    // likely true, so Halide splits the loops into a ring part and an
    // interior without it (as its BoundaryConditions do).
    Halide::Expr ring0(int rl, int cl, Halide::Expr v) const {
        return Halide::select(Halide::likely(inside(rl, cl)), v, 0.0f);
    }

    // at reads f, whose rows are of level rl and columns of level cl,
    // clamped to its box; the other arguments are passed through. The
    // clamps likely leave their argument as it is (BoundaryConditions'
    // repeat_edge says the same), so the interior is loop-partitioned
    // free of them.
    auto at(Halide::Func f, int rl, int cl) const {
        Halide::Expr r = (rows >> rl) + 3, c = (cols >> cl) + 3;
        return [=](Halide::Expr xx, Halide::Expr yy, std::vector<Halide::Expr> rest) {
            std::vector<Halide::Expr> args = {Halide::clamp(Halide::likely(xx), 0, c), Halide::clamp(Halide::likely(yy), 0, r)};
            args.insert(args.end(), rest.begin(), rest.end());
            return f(args);
        };
    }
};

} // namespace tf

#endif
