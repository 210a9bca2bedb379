// Multiscale interpolation: polymage/interpolate.go in Halide.
//
// x is the column, y the row and c the channel (alpha is 3) of the
// planar RGBA image, with a ghost ring of one pixel. Level l has rows
// R >> l and columns C >> l inside a ring of one pixel on every side;
// every filtered stage is 0 on its ring, as in the port (here a select
// where a consumer reads the ring, see below), and the pyramid geometry (a coarse pixel i over fine pixels 2i-1 and 2i) is the
// port's.
#include "Halide.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using namespace Halide;

class Interpolate : public Generator<Interpolate> {
public:
    GeneratorParam<int> R{"R", 2560};
    GeneratorParam<int> C{"C", 1536};
    GeneratorParam<int> levels{"levels", 10};

    Input<Buffer<float>> img{"img", 3};
    Output<Buffer<float>> out{"interpolate", 3};

    void generate() {
        Expr rows = img.dim(1).extent() - 2, cols = img.dim(0).extent() - 2;
        // The port's stages are 0 on their rings. Here a stage is set
        // to 0 only on the part of its ring that some consumer reads
        // where that consumer is off its own ring, and nowhere else: each
        // select costs a vector comparison per condition in Halide's
        // interiors (strict_float keeps loop partitioning from removing
        // them), so fewer conditions run faster, with the same results.
        // The down-sampling reads a level's first row and column (2x - 2
        // at x = 1), the up-sampling its last ones ((x + 2) / 2 at the
        // coarser level's last column), the output only the interior.
        auto first = [&](Expr v) { return select(likely(x >= 1 && y >= 1), v, 0.0f); };
        auto last = [&](int l, Expr v) { return select(likely(x <= (cols >> l) && y <= (rows >> l)), v, 0.0f); };
        // at reads f, whose rows are of level rl and columns of level cl,
        // clamped to its box: the interior's reads stay in the box anyway,
        // the clamp keeps Halide from computing each coarser level over
        // ever wider margins (the ring's reads, which select discards).
        auto at = [&](Func f, int rl, int cl) {
            return [=](Expr xx, Expr yy, Expr cc) {
                return f(clamp(likely(xx), 0, (cols >> cl) + 1), clamp(likely(yy), 0, (rows >> rl) + 1), cc);
            };
        };

        D.resize(levels);
        Dx.resize(levels);
        interp.resize(levels);
        // The image clamped too: a schedule that computes a tile whole
        // (Mullapudi2016's) reads past the image at its edges.
        auto in = at(img, 0, 0);
        // Column 0 of D[0] (the image's ring) is read only by Dx[1]'s
        // column 0, which D[1] reads as 0 (Dx[1]'s ring): 0 here gives that.
        D[0](x, y, c) = select(likely(x >= 1), select(c < 3, in(x, y, c) * in(x, y, 3), in(x, y, 3)), 0.0f);
        for (int l = 1; l < levels; l++) {
            // [1 2 1]/4 across rows, then columns, keeping every other line.
            Dx[l] = Func("Dx_" + std::to_string(l));
            D[l] = Func("D_" + std::to_string(l));
            auto f = at(D[l - 1], l - 1, l - 1);
            // Of Dx's ring, D reads only column 0 where D is off its own
            // ring, and that column reads column 0 of level l - 1, which
            // is 0 (D's ring; for level 0, see D[0]): so Dx needs no
            // select.
            Dx[l](x, y, c) = (f(x, 2 * y - 2, c) + f(x, 2 * y - 1, c) * 2.0f + f(x, 2 * y, c)) * 0.25f;
            auto g = at(Dx[l], l, l - 1);
            Expr d = (g(2 * x - 2, y, c) + g(2 * x - 1, y, c) * 2.0f + g(2 * x, y, c)) * 0.25f;
            // The coarsest level is read by the up-sampling alone.
            D[l](x, y, c) = l == levels - 1 ? last(l, d) : first(d);
        }
        // The coarsest level's interpolation is its down-sampled values,
        // a Func of its own (the app's), so that they are scheduled apart.
        interp[levels - 1] = Func("interpolated_L" + std::to_string(levels - 1));
        interp[levels - 1](x, y, c) = D[levels - 1](x, y, c);
        for (int l = levels - 2; l >= 0; l--) {
            // Linear up-sampling across rows, then columns; the level's own
            // value where it is opaque, the coarser estimate where not.
            Func Ux("Ux_" + std::to_string(l)), Uy("Uy_" + std::to_string(l));
            interp[l] = Func("interpolated_L" + std::to_string(l));
            // Not clamped: the reads of the coarser level stay within one
            // pixel past its box, where it is 0 as on its ring, and a
            // clamp there stays in Halide's vectorized interior as a
            // gather (loop partitioning does not solve it through the
            // halving). No selects on Ux and Uy either: the part of their
            // rings that is read, their last column, reads the coarser
            // level's last column, 0.
            Func f = interp[l + 1];
            Ux(x, y, c) = (f(x, (y + 1) / 2, c) + f(x, (y + 2) / 2, c)) / 2.0f;
            Uy(x, y, c) = (Ux((x + 1) / 2, y, c) + Ux((x + 2) / 2, y, c)) / 2.0f;
            Expr v = D[l](x, y, c) + (1.0f - D[l](x, y, 3)) * Uy(x, y, c);
            interp[l](x, y, c) = l == 0 ? v : last(l, v);
        }
        out(x, y, c) = interp[0](x + 1, y + 1, c) / interp[0](x + 1, y + 1, 3);
    }

    void schedule() {
        if (auto_schedule) {
            // Mullapudi2016 fails (an internal error) on levels it
            // estimates empty.
            const int coarsest = 1 << (levels - 1);
            if (R < coarsest || C < coarsest) {
                std::fprintf(stderr, "interpolate: the autoscheduler needs at least %d rows and columns, "
                                     "one pixel at the coarsest level\n", coarsest);
                std::exit(1);
            }
            img.set_estimates({{0, C + 2}, {0, R + 2}, {0, 4}});
            out.set_estimates({{0, C}, {0, R}, {0, 3}});
            return;
        }
        // Halide v14's apps/interpolate CPU schedule, decision for
        // decision: the down-sampled levels but the coarsest computed
        // whole, in parallel over strips of 8 rows, the channel inside
        // the row, vectorized (the row filters inlined); the finest level
        // a clone in the first down-sampling, per row into a window of
        // its strip, channels unrolled; the output in parallel strips of
        // 32 rows, a vector of columns, the channels unrolled, inside; in
        // a strip every interpolated level but the finest computed per
        // row into a window of the strip (the finest, the up-sampling and
        // the coarsest down-sampling inlined).
        const int vec = natural_vector_size<float>();
        Var yo("yo"), yi("yi"), xo("xo"), xi("xi");
        for (int l = 1; l < levels - 1; l++) {
            D[l].compute_root().reorder(x, c, y).split(y, yo, yi, 8).parallel(yo).vectorize(x, vec);
        }
        D[0].clone_in(Dx[1]).store_at(D[1], yo).compute_at(D[1], yi).reorder(c, x, y).unroll(c).vectorize(x, vec);
        Expr rows = img.dim(1).extent() - 2, cols = img.dim(0).extent() - 2;
        out.bound(x, 0, cols)
            .bound(y, 0, rows)
            .bound(c, 0, 3)
            .split(x, xo, xi, vec)
            .split(y, yo, yi, 32)
            .reorder(xi, c, xo, yi, yo)
            .unroll(c)
            .vectorize(xi)
            .parallel(yo);
        for (int l = 1; l < levels; l++) {
            interp[l].store_at(out, yo).compute_at(out, yi).vectorize(x, vec);
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    std::vector<Func> D, Dx, interp;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Interpolate, interpolate)
