// Multiscale interpolation: polymage/interpolate.go in Halide.
//
// x is the column, y the row and c the channel (alpha is 3) of the
// planar RGBA image, with a ghost ring of one pixel. Level l has rows
// R >> l and columns C >> l inside a ring of one pixel on every side;
// every filtered stage is 0 on its ring, as in the port, and the pyramid
// geometry (a coarse pixel i over fine pixels 2i-1 and 2i) is the
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
        // inside is the interior of rows of level rl and columns of level cl.
        auto inside = [&](int rl, int cl) {
            return x >= 1 && x <= (cols >> cl) && y >= 1 && y <= (rows >> rl);
        };
        auto ring0 = [&](int rl, int cl, Expr v) { return select(inside(rl, cl), v, 0.0f); };
        // at reads f, whose rows are of level rl and columns of level cl,
        // clamped to its box: the interior's reads stay in the box anyway,
        // the clamp keeps Halide from computing each coarser level over
        // ever wider margins (the ring's reads, which select discards).
        auto at = [&](Func f, int rl, int cl) {
            return [=](Expr xx, Expr yy, Expr cc) {
                return f(clamp(xx, 0, (cols >> cl) + 1), clamp(yy, 0, (rows >> rl) + 1), cc);
            };
        };

        D.resize(levels);
        Dx.resize(levels);
        interp.resize(levels);
        // The image clamped too: a schedule that computes a tile whole
        // (Mullapudi2016's) reads past the image at its edges.
        auto in = at(img, 0, 0);
        D[0](x, y, c) = select(c < 3, in(x, y, c) * in(x, y, 3), in(x, y, 3));
        for (int l = 1; l < levels; l++) {
            // [1 2 1]/4 across rows, then columns, keeping every other line.
            Dx[l] = Func("Dx_" + std::to_string(l));
            D[l] = Func("D_" + std::to_string(l));
            auto f = at(D[l - 1], l - 1, l - 1);
            Dx[l](x, y, c) = ring0(l, l - 1, (f(x, 2 * y - 2, c) + f(x, 2 * y - 1, c) * 2.0f + f(x, 2 * y, c)) * 0.25f);
            auto g = at(Dx[l], l, l - 1);
            D[l](x, y, c) = ring0(l, l, (g(2 * x - 2, y, c) + g(2 * x - 1, y, c) * 2.0f + g(2 * x, y, c)) * 0.25f);
        }
        interp[levels - 1] = D[levels - 1];
        for (int l = levels - 2; l >= 0; l--) {
            // Linear up-sampling across rows, then columns; the level's own
            // value where it is opaque, the coarser estimate where not.
            Func Ux("Ux_" + std::to_string(l)), Uy("Uy_" + std::to_string(l));
            interp[l] = Func("interpolated_L" + std::to_string(l));
            auto f = at(interp[l + 1], l + 1, l + 1);
            Ux(x, y, c) = ring0(l, l + 1, (f(x, (y + 1) / 2, c) + f(x, (y + 2) / 2, c)) / 2.0f);
            auto g = at(Ux, l, l + 1);
            Uy(x, y, c) = ring0(l, l, (g((x + 1) / 2, y, c) + g((x + 2) / 2, y, c)) / 2.0f);
            interp[l](x, y, c) = ring0(l, l, D[l](x, y, c) + (1.0f - D[l](x, y, 3)) * Uy(x, y, c));
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
        // Halide's apps/interpolate CPU schedule: every level's
        // down-sampled and interpolated values computed whole, in
        // parallel over strips of 8 rows and vectorized along rows (the
        // separable halves and the up-sampling inlined), the finest
        // level inlined into the output, whose channels are unrolled.
        const int vec = natural_vector_size<float>();
        for (int l = 1; l < levels; l++) {
            D[l].compute_root().parallel(y, 8).vectorize(x, vec);
            Dx[l].compute_at(D[l], y).vectorize(x, vec);
            if (l < levels - 1) {
                interp[l].compute_root().parallel(y, 8).vectorize(x, vec);
            }
        }
        out.reorder(c, x, y).bound(c, 0, 3).unroll(c).parallel(y, 8).vectorize(x, vec);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    std::vector<Func> D, Dx, interp;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Interpolate, interpolate)
