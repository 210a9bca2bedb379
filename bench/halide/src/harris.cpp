// Harris corner detection: polymage/harris.go in Halide.
//
// tilefuse's x is the row and y the column; here x is the column (Halide's
// innermost dimension, stride 1) and y the row, so at(dr, dc) reads the
// image dr rows and dc columns away. Every sum is written in the order of
// tilefuse's port so that, under strict_float, the results agree bit for
// bit.
#include "Halide.h"

namespace {

using namespace Halide;

class Harris : public Generator<Harris> {
public:
    // Sizes for the autoscheduler's estimates: (R+2) x (C+2) pixels in.
    GeneratorParam<int> R{"R", 6400};
    GeneratorParam<int> C{"C", 6400};

    Input<Buffer<float>> img{"img", 2};
    Output<Buffer<float>> harris{"harris", 2};

    void generate() {
        auto at = [&](int dr, int dc) { return img(x + dc, y + dr); };
        Iy(x, y) = (at(-1, -1) * -1.0f + at(-1, 1) * 1.0f +
                    at(0, -1) * -2.0f + at(0, 1) * 2.0f +
                    at(1, -1) * -1.0f + at(1, 1) * 1.0f) / 12.0f;
        Ix(x, y) = (at(-1, -1) * -1.0f + at(-1, 0) * -2.0f + at(-1, 1) * -1.0f +
                    at(1, -1) * 1.0f + at(1, 0) * 2.0f + at(1, 1) * 1.0f) / 12.0f;
        Ixx(x, y) = Ix(x, y) * Ix(x, y);
        Iyy(x, y) = Iy(x, y) * Iy(x, y);
        Ixy(x, y) = Ix(x, y) * Iy(x, y);
        auto box = [&](Func f) {
            Expr s;
            for (int dr = -1; dr <= 1; dr++) {
                for (int dc = -1; dc <= 1; dc++) {
                    Expr t = f(x + dc, y + dr);
                    s = s.defined() ? s + t : t;
                }
            }
            return s;
        };
        Sxx(x, y) = box(Ixx);
        Syy(x, y) = box(Iyy);
        Sxy(x, y) = box(Ixy);
        det(x, y) = Sxx(x, y) * Syy(x, y) - Sxy(x, y) * Sxy(x, y);
        trace(x, y) = Sxx(x, y) + Syy(x, y);
        harris(x, y) = det(x, y) - 0.04f * trace(x, y) * trace(x, y);
    }

    void schedule() {
        if (auto_schedule) {
            // Border of two pixels: the output is the image's interior.
            img.set_estimates({{0, C + 2}, {0, R + 2}});
            harris.set_estimates({{2, C - 2}, {2, R - 2}});
            return;
        }
        // Halide v14's apps/harris CPU schedule, decision for decision
        // (the port has no grey stage, whose window the app computes
        // like the gradients'): strips of 32 rows in parallel (the last
        // shifted inwards, Halide's default), vectorized; the gradients
        // computed per row, together, into windows of the strip;
        // everything else inlined into the output.
        const int vec = natural_vector_size<float>();
        harris.split(y, y, yi, 32).parallel(y).vectorize(x, vec);
        Iy.store_at(harris, y).compute_at(harris, yi).vectorize(x, vec);
        Ix.store_at(harris, y).compute_at(harris, yi).vectorize(x, vec);
        Ix.compute_with(Iy, x);
    }

private:
    Var x{"x"}, y{"y"}, yi{"yi"};
    Func Iy{"Iy"}, Ix{"Ix"}, Ixx{"Ixx"}, Iyy{"Iyy"}, Ixy{"Ixy"};
    Func Sxx{"Sxx"}, Syy{"Syy"}, Sxy{"Sxy"}, det{"det"}, trace{"trace"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Harris, harris)
