// The bilateral grid: polymage/bilateral.go in Halide.
//
// x is the column and y the row, so a grid cell (x, y, z, c) holds the
// pixels of rows 8y..8y+7 and columns 8x..8x+7 whose intensity bin is z;
// c = 0 sums their values, c = 1 counts them. The port's blurx is the
// blur across row cells (y here), its blury across column cells (x).
// Intensity bins are clamped to [0, 10], which changes nothing for an
// image in [0, 1] (the port's domain) and bounds the grid for Halide.
#include "Halide.h"

namespace {

using namespace Halide;

class BilateralGrid : public Generator<BilateralGrid> {
public:
    GeneratorParam<int> R{"R", 1536};
    GeneratorParam<int> C{"C", 2560};

    Input<Buffer<float>> img{"img", 2};
    Output<Buffer<float>> filtered{"filtered", 2};

    void generate() {
        const int s = 8;
        Expr rows = img.dim(1).extent(), cols = img.dim(0).extent();

        // The histogram: each cell sums its own pixels, rows outer and
        // columns inner, the order of the port's scan of the image.
        r = RDom(0, s, 0, s, "r");
        Expr px = x * s + r.x, py = y * s + r.y;
        r.where(px >= 0 && px < cols && py >= 0 && py < rows);
        Expr val = img(clamp(px, 0, cols - 1), clamp(py, 0, rows - 1));
        Expr zi = clamp(cast<int>(val * 10.0f), 0, 10);
        grid(x, y, z, c) = 0.0f;
        grid(x, y, zi, c) += select(c == 0, val, 1.0f);

        auto taps = [](auto at) {
            return at(-2) + at(-1) * 4.0f + at(0) * 6.0f + at(1) * 4.0f + at(2);
        };
        blurz(x, y, z, c) = taps([&](int d) { return grid(x, y, z + d, c); });
        blurx(x, y, z, c) = taps([&](int d) { return blurz(x, y + d, z, c); });
        blury(x, y, z, c) = taps([&](int d) { return blurx(x + d, y, z, c); });

        // The slice, with the port's lerp(a, b, w) = a + w*(b - a): first
        // across rows, then columns, then intensity.
        Expr zv = img(x, y) * 10.0f;
        Expr zc = clamp(cast<int>(zv), 0, 10);
        Expr zf = zv - cast<float>(zc);
        Expr rf = cast<float>(y % s) / 8.0f, cf = cast<float>(x % s) / 8.0f;
        Expr xc = x / s, yc = y / s;
        auto lerp = [](Expr a, Expr b, Expr w) { return a + w * (b - a); };
        auto at = [&](int dr, int dc, int dz) { return blury(xc + dc, yc + dr, zc + dz, c); };
        Expr z0 = lerp(lerp(at(0, 0, 0), at(1, 0, 0), rf), lerp(at(0, 1, 0), at(1, 1, 0), rf), cf);
        Expr z1 = lerp(lerp(at(0, 0, 1), at(1, 0, 1), rf), lerp(at(0, 1, 1), at(1, 1, 1), rf), cf);
        interpolated(x, y, c) = lerp(z0, z1, zf);

        filtered(x, y) = select(interpolated(x, y, 1) > 0.0f,
                                interpolated(x, y, 0) / interpolated(x, y, 1), img(x, y));
    }

    void schedule() {
        if (auto_schedule) {
            img.set_estimates({{0, C}, {0, R}});
            filtered.set_estimates({{0, C}, {0, R}});
            return;
        }
        // Halide's apps/bilateral_grid CPU schedule: the histogram of a
        // row of cells computed where the blur in z needs it, each blur
        // computed whole, in parallel over rows of cells (or bins) and
        // vectorized across cells, the channel loops unrolled; the slice
        // inlined into the output, parallel over rows and vectorized.
        // The app's vectors are 8 wide whatever the target (it finds
        // AVX-512 no faster here), so these are too.
        const int vec = 8;
        grid.compute_at(blurz, y);
        grid.update().reorder(c, r.x, r.y, x, y).unroll(c);
        blurz.compute_root().reorder(c, z, x, y).parallel(y).vectorize(x, vec).unroll(c);
        blurx.compute_root().reorder(c, x, y, z).parallel(z).vectorize(x, vec).unroll(c);
        blury.compute_root().reorder(c, x, y, z).parallel(z).vectorize(x, vec).unroll(c);
        filtered.compute_root().parallel(y).vectorize(x, vec);
    }

private:
    Var x{"x"}, y{"y"}, z{"z"}, c{"c"};
    RDom r;
    Func grid{"grid"}, blurz{"blurz"}, blurx{"blurx"}, blury{"blury"}, interpolated{"interpolated"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BilateralGrid, bilateral_grid)
