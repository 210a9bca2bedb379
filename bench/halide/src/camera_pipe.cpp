// The camera pipeline: polymage/camera.go in Halide.
//
// Halide's x is the column and y the row; at(f, dr, dc) reads f dr rows
// and dc columns away, so the demosaicing below reads as the port's Go,
// whose x is the row. Every integer operation has the port's type (i16
// up to the colour matrix, floor division) and the curve the port's
// float arithmetic, so the output equals the port's bit for bit.
#include "Halide.h"

namespace {

using namespace Halide;

class CameraPipe : public Generator<CameraPipe> {
public:
    GeneratorParam<int> R{"R", 1968};
    GeneratorParam<int> C{"C", 2592};

    Input<Buffer<uint16_t>> img{"img", 2};
    Input<Buffer<float>> matrix_3200{"matrix_3200", 2};
    Input<Buffer<float>> matrix_7000{"matrix_7000", 2};
    Output<Buffer<uint8_t>> process{"process", 3};

    void generate() {
        // 1. Hot-pixel suppression.
        Expr maxN = max(max(img(x, y - 2), img(x, y + 2)), max(img(x - 2, y), img(x + 2, y)));
        Expr minN = min(min(img(x, y - 2), img(x, y + 2)), min(img(x - 2, y), img(x + 2, y)));
        denoised(x, y) = cast<int16_t>(max(minN, min(maxN, img(x, y))));

        // 2. Deinterleaving: plane 1 is the odd columns of even rows,
        // plane 2 the even columns of odd rows.
        deinterleaved(x, y, c) = mux(c, {denoised(2 * x, 2 * y), denoised(2 * x + 1, 2 * y),
                                         denoised(2 * x, 2 * y + 1), denoised(2 * x + 1, 2 * y + 1)});
        g_gr(x, y) = deinterleaved(x, y, 0);
        r_r(x, y) = deinterleaved(x, y, 1);
        b_b(x, y) = deinterleaved(x, y, 2);
        g_gb(x, y) = deinterleaved(x, y, 3);

        // 3. Demosaicing.
        auto at = [&](Func f, int dr, int dc) { return f(x + dc, y + dr); };
        auto avg = [](Expr a, Expr b) { return (a + b) / 2; };
        auto absd = [](Expr a, Expr b) { return select(a > b, a - b, b - a); };
        auto pick = [&](Expr a, Expr a0, Expr a1, Expr b, Expr b0, Expr b1) {
            return select(absd(a0, a1) < absd(b0, b1), a, b);
        };
        g_r(x, y) = pick(avg(at(g_gr, 0, 1), at(g_gr, 0, 0)), at(g_gr, 0, 1), at(g_gr, 0, 0),
                         avg(at(g_gb, -1, 0), at(g_gb, 0, 0)), at(g_gb, -1, 0), at(g_gb, 0, 0));
        g_b(x, y) = pick(avg(at(g_gb, 0, -1), at(g_gb, 0, 0)), at(g_gb, 0, -1), at(g_gb, 0, 0),
                         avg(at(g_gr, 1, 0), at(g_gr, 0, 0)), at(g_gr, 1, 0), at(g_gr, 0, 0));
        auto correct = [&](Expr g0, Func g, Func f, int dr0, int dc0, int dr1, int dc1) {
            return (g0 - avg(at(g, dr0, dc0), at(g, dr1, dc1))) + avg(at(f, dr0, dc0), at(f, dr1, dc1));
        };
        r_gr(x, y) = correct(at(g_gr, 0, 0), g_r, r_r, 0, 0, 0, -1);
        b_gr(x, y) = correct(at(g_gr, 0, 0), g_b, b_b, 0, 0, -1, 0);
        r_gb(x, y) = correct(at(g_gb, 0, 0), g_r, r_r, 0, 0, 1, 0);
        b_gb(x, y) = correct(at(g_gb, 0, 0), g_b, b_b, 0, 0, 0, 1);
        r_b(x, y) = pick(correct(at(g_b, 0, 0), g_r, r_r, 0, 0, 1, -1), at(r_r, 0, 0), at(r_r, 1, -1),
                         correct(at(g_b, 0, 0), g_r, r_r, 0, -1, 1, 0), at(r_r, 0, -1), at(r_r, 1, 0));
        b_r(x, y) = pick(correct(at(g_r, 0, 0), g_b, b_b, 0, 0, -1, 1), at(b_b, 0, 0), at(b_b, -1, 1),
                         correct(at(g_r, 0, 0), g_b, b_b, 0, 1, -1, 0), at(b_b, 0, 1), at(b_b, -1, 0));

        // 4. Interleaving: by the column's parity, then the row's.
        auto interleave = [&](Func a, Func b, Func c2, Func d) {
            Expr even = select(x % 2 == 0, a(x / 2, y / 2), b(x / 2, y / 2));
            Expr odd = select(x % 2 == 0, c2(x / 2, y / 2), d(x / 2, y / 2));
            return select(y % 2 == 0, even, odd);
        };
        red(x, y) = interleave(r_gr, r_r, r_b, r_gb);
        green(x, y) = interleave(g_gr, g_r, g_b, g_gb);
        blue(x, y) = interleave(b_gr, b_r, b_b, b_gb);

        // 5. The colour matrix for 3700 K, Q8.8, and its application;
        // channel 0 is blue, 2 red.
        matrix(x, y) = cast<int>((matrix_3200(x, y) * 0.24893314f + matrix_7000(x, y) * 0.75106686f) * 256.0f);
        auto channel = [&](int i) {
            Expr sum = matrix(3, i) + matrix(0, i) * cast<int>(red(x, y)) +
                       matrix(1, i) * cast<int>(green(x, y)) + matrix(2, i) * cast<int>(blue(x, y));
            return cast<int16_t>(sum / 256);
        };
        corrected(x, y, c) = mux(c, {channel(2), channel(1), channel(0)});

        // 6. The gamma and contrast curve, a table over every i16 value.
        Expr g = pow(max(min(cast<float>(v) / 1024.0f, 1.0f), 0.0f), 0.5f);
        const float a = 0.8284271f, b = 0.58578646f;
        Expr zc = select(g > 0.5f, 1.0f - (a * (1.0f - g) * (1.0f - g) + b * (1.0f - g)), a * g * g + b * g);
        curve(v) = cast<uint8_t>(min(max(zc * 256.0f, 0.0f), 255.0f));

        process(x, y, c) = curve(cast<int>(corrected(x, y, c)));
    }

    void schedule() {
        if (auto_schedule) {
            img.set_estimates({{0, C}, {0, R}});
            matrix_3200.set_estimates({{0, 4}, {0, 3}});
            matrix_7000.set_estimates({{0, 4}, {0, 3}});
            process.set_estimates({{16, C - 64}, {12, R - 48}, {0, 3}});
            return;
        }
        // Halide's apps/camera_pipe CPU schedule: strips of 32 rows in
        // parallel; in a strip, the denoised image, the colour planes
        // and the demosaicing's intermediates computed row by row into
        // sliding windows stored per strip, vectorized along the row;
        // the interleaved colours and their correction computed per
        // row (Halide's computes them per vector of output, which needs
        // a row of at least two vectors), channels unrolled; the curve a
        // table computed first. The strip and the vectors of output are
        // guarded, so that small images work too.
        const int vec = natural_vector_size<int16_t>();
        matrix.compute_root();
        curve.compute_root().vectorize(v, vec);
        process.reorder(c, x, y)
            .bound(c, 0, 3)
            .split(y, yo, yi, 32, TailStrategy::GuardWithIf)
            .split(x, x, xi, 2 * vec, TailStrategy::GuardWithIf)
            .vectorize(xi)
            .unroll(c)
            .parallel(yo);
        corrected.compute_at(process, yi).bound_extent(c, 3).reorder(c, x, y).vectorize(x, vec).unroll(c);
        denoised.store_at(process, yo).compute_at(process, yi).vectorize(x, vec);
        deinterleaved.store_at(process, yo).compute_at(process, yi).bound_extent(c, 4).reorder(c, x, y)
            .vectorize(x, vec).unroll(c);
        for (Func f : {g_r, g_b, r_gr, b_gr, r_gb, b_gb, r_b, b_r}) {
            f.store_at(process, yo).compute_at(process, yi).vectorize(x, vec);
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, v{"v"}, xi{"xi"}, yo{"yo"}, yi{"yi"};
    Func denoised{"denoised"}, deinterleaved{"deinterleaved"};
    Func g_gr{"g_gr"}, r_r{"r_r"}, b_b{"b_b"}, g_gb{"g_gb"};
    Func g_r{"g_r"}, g_b{"g_b"}, r_gr{"r_gr"}, b_gr{"b_gr"}, r_gb{"r_gb"}, b_gb{"b_gb"}, r_b{"r_b"}, b_r{"b_r"};
    Func red{"red"}, green{"green"}, blue{"blue"}, matrix{"matrix"}, corrected{"corrected"}, curve{"curve"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(CameraPipe, camera_pipe)
