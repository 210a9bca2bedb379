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
        // The image with its edge repeated: the schedule below rounds the
        // colour planes' rows up to whole vectors (Halide's app does), and
        // the extra values at the right edge, which no output reads, would
        // read past the image. Every value the output reads is inside it,
        // so the output is unchanged.
        Func in = BoundaryConditions::repeat_edge(img);

        // 1. Hot-pixel suppression.
        Expr maxN = max(max(in(x, y - 2), in(x, y + 2)), max(in(x - 2, y), in(x + 2, y)));
        Expr minN = min(min(in(x, y - 2), in(x, y + 2)), min(in(x - 2, y), in(x + 2, y)));
        denoised(x, y) = cast<int16_t>(max(minN, min(maxN, in(x, y))));

        // 2. Deinterleaving: plane 1 is the odd columns of even rows,
        // plane 2 the even columns of odd rows.
        deinterleaved(x, y, c) = mux(c, {denoised(2 * x, 2 * y), denoised(2 * x + 1, 2 * y),
                                         denoised(2 * x, 2 * y + 1), denoised(2 * x + 1, 2 * y + 1)});
        Func g_gr("g_gr"), r_r("r_r"), b_b("b_b"), g_gb("g_gb");
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
        Func r_gr("r_gr"), b_gr("b_gr"), r_gb("r_gb"), b_gb("b_gb"), r_b("r_b"), b_r("b_r");
        r_gr(x, y) = correct(at(g_gr, 0, 0), g_r, r_r, 0, 0, 0, -1);
        b_gr(x, y) = correct(at(g_gr, 0, 0), g_b, b_b, 0, 0, -1, 0);
        r_gb(x, y) = correct(at(g_gb, 0, 0), g_r, r_r, 0, 0, 1, 0);
        b_gb(x, y) = correct(at(g_gb, 0, 0), g_b, b_b, 0, 0, 0, 1);
        r_b(x, y) = pick(correct(at(g_b, 0, 0), g_r, r_r, 0, 0, 1, -1), at(r_r, 0, 0), at(r_r, 1, -1),
                         correct(at(g_b, 0, 0), g_r, r_r, 0, -1, 1, 0), at(r_r, 0, -1), at(r_r, 1, 0));
        b_r(x, y) = pick(correct(at(g_r, 0, 0), g_b, b_b, 0, 0, -1, 1), at(b_b, 0, 0), at(b_b, -1, 1),
                         correct(at(g_r, 0, 0), g_b, b_b, 0, 1, -1, 0), at(b_b, 0, 1), at(b_b, -1, 0));

        // 4. Interleaving, by the column's parity, then the row's, into
        // one function of the three colours (the app's demosaic output).
        auto interleave = [&](Func a, Func b, Func c2, Func d) {
            Expr even = select(x % 2 == 0, a(x / 2, y / 2), b(x / 2, y / 2));
            Expr odd = select(x % 2 == 0, c2(x / 2, y / 2), d(x / 2, y / 2));
            return select(y % 2 == 0, even, odd);
        };
        demosaiced(x, y, c) = mux(c, {interleave(r_gr, r_r, r_b, r_gb), interleave(g_gr, g_r, g_b, g_gb),
                                      interleave(b_gr, b_r, b_b, b_gb)});

        // 5. The colour matrix for 3700 K, Q8.8, and its application;
        // channel 0 is blue, 2 red.
        matrix(x, y) = cast<int>((matrix_3200(x, y) * 0.24893314f + matrix_7000(x, y) * 0.75106686f) * 256.0f);
        auto channel = [&](int i) {
            Expr sum = matrix(3, i) + matrix(0, i) * cast<int>(demosaiced(x, y, 0)) +
                       matrix(1, i) * cast<int>(demosaiced(x, y, 1)) + matrix(2, i) * cast<int>(demosaiced(x, y, 2));
            return cast<int16_t>(sum / 256);
        };
        corrected(x, y, c) = mux(c, {channel(2), channel(1), channel(0)});

        // 6. The gamma and contrast curve, the port's table over every i16
        // value v. It is constant below 0 and from 1024 on (v / 1024 is
        // clamped to [0, 1]), so the output reads it at v clamped to
        // [0, 1024], which is the same value: the table Halide computes
        // then has 1025 entries, not 65536 (the app's has 1024).
        Expr g = pow(max(min(cast<float>(v) / 1024.0f, 1.0f), 0.0f), 0.5f);
        const float a = 0.8284271f, b = 0.58578646f;
        Expr zc = select(g > 0.5f, 1.0f - (a * (1.0f - g) * (1.0f - g) + b * (1.0f - g)), a * g * g + b * g);
        curve(v) = cast<uint8_t>(min(max(zc * 256.0f, 0.0f), 255.0f));

        process(x, y, c) = curve(clamp(cast<int>(corrected(x, y, c)), 0, 1024));
    }

    void schedule() {
        if (auto_schedule) {
            img.set_estimates({{0, C}, {0, R}});
            matrix_3200.set_estimates({{0, 4}, {0, 3}});
            matrix_7000.set_estimates({{0, 4}, {0, 3}});
            process.set_estimates({{16, C - 64}, {12, R - 48}, {0, 3}});
            return;
        }
        // Halide v14's apps/camera_pipe CPU schedule, decision for
        // decision. The port has no sharpening, so its output is the
        // app's `curved` (the curve applied, tiled 2vec x 2 and computed
        // per pair of rows) placed in the app's `processed` loops
        // (parallel strips of 32 rows, then pairs of rows). The app's
        // tails are RoundUp, with bounds that make the output a whole
        // number of vectors and strips; the port's output (C-64 columns)
        // need not be, so its tails are ShiftInwards (Halide's default
        // for an output) and only the channel is bound.
        const int vec = natural_vector_size<uint16_t>();
        matrix.compute_root();
        curve.compute_root();
        process.compute_root()
            .reorder(c, x, y)
            .bound(c, 0, 3)
            .split(y, yo, y, 32)
            .tile(x, y, x, y, xi, yi, 2 * vec, 2)
            .vectorize(xi)
            .unroll(yi)
            .unroll(c)
            .parallel(yo);
        denoised.compute_at(process, y)
            .store_at(process, yo)
            .prefetch(img, y, y, 2)
            .fold_storage(y, 4)
            .tile(x, y, x, y, xi, yi, 2 * vec, 2)
            .vectorize(xi)
            .unroll(yi);
        deinterleaved.compute_at(process, y)
            .store_at(process, yo)
            .fold_storage(y, 4)
            .reorder(c, x, y)
            .vectorize(x, 2 * vec, TailStrategy::RoundUp)
            .unroll(c);
        corrected.compute_at(process, x).reorder(c, x, y).vectorize(x).unroll(c);
        // The demosaic: its two stencil stages per pair of rows into
        // folded windows of the strip, computed together; its output
        // per tile of the output; the rest inlined.
        for (Func f : {g_r, g_b}) {
            f.compute_at(process, y)
                .store_at(process, yo)
                .vectorize(x, 2 * vec, TailStrategy::RoundUp)
                .fold_storage(y, 4);
        }
        g_b.compute_with(g_r, x, {{x, LoopAlignStrategy::AlignStart}, {y, LoopAlignStrategy::AlignStart}});
        demosaiced.compute_at(process, x).vectorize(x).unroll(y).reorder(c, x, y).unroll(c);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, v{"v"}, xi{"xi"}, yo{"yo"}, yi{"yi"};
    Func denoised{"denoised"}, deinterleaved{"deinterleaved"}, g_r{"g_r"}, g_b{"g_b"};
    Func demosaiced{"demosaiced"}, matrix{"matrix"}, corrected{"corrected"}, curve{"curve"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(CameraPipe, camera_pipe)
