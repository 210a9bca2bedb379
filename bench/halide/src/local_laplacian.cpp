// The local Laplacian filter: polymage/laplacian.go in Halide.
//
// x is the column, y the row, c the channel of the planar u16 image
// (channel 2 red) and k the intensity level. Level l has rows R >> l and
// columns C >> l inside a ring of two pixels on every side; filtered
// stages are 0 on their ring and the pyramid geometry is the port's.
// Reads are clamped to the box of what they read: the interior's reads
// stay in it anyway, and the clamp keeps Halide from computing coarse
// levels over margins that double at every level (ring values, which
// the selects discard). Alpha and beta are 1, the port's.
#include "Halide.h"
#include "tf_pyramid.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

// tf_expf is libm's expf (the wrapper defines it): Halide's own exp
// differs from it in the last bits, which moves a few output pixels by
// one.
HalideExtern_1(float, tf_expf, float);

namespace {

using namespace Halide;

class LocalLaplacian : public Generator<LocalLaplacian> {
public:
    GeneratorParam<int> R{"R", 2560};
    GeneratorParam<int> C{"C", 1536};
    GeneratorParam<int> J{"pyramid_levels", 8};
    GeneratorParam<int> K{"intensity_levels", 8};

    Input<Buffer<uint16_t>> img_colour{"img_colour", 3};
    Output<Buffer<uint16_t>> laplacian{"laplacian", 3};

    void generate() {
        Expr rows = img_colour.dim(1).extent() - 4, cols = img_colour.dim(0).extent() - 4;
        const tf::Levels lv{rows, cols, x, y};
        // down filters f (level l-1) by [1 3 3 1]/8 across rows into Dx,
        // then Dx across columns into D, keeping every other line.
        auto down = [&](Func f, Func Dx, Func D, int l, std::vector<Var> lead) {
            std::vector<Expr> ks(lead.begin(), lead.end());
            auto src = lv.at(f, l - 1, l - 1);
            std::vector<Var> args = {x, y};
            args.insert(args.end(), lead.begin(), lead.end());
            // Of Dx's ring, D reads only where D is on its own ring, but
            // for Dx's columns 1 and cols + 2, which read f's ring: 0
            // above level 1, so Dx needs no select there (each select is
            // a vector comparison per condition in Halide's interiors).
            Expr dx = (src(x, 2 * y - 3, ks) + src(x, 2 * y - 2, ks) * 3.0f + src(x, 2 * y - 1, ks) * 3.0f +
                       src(x, 2 * y, ks)) * 0.125f;
            Dx(args) = l == 1 ? lv.ring0(l, l - 1, dx) : dx;
            auto d = lv.at(Dx, l, l - 1);
            D(args) = lv.ring0(l, l, (d(2 * x - 3, y, ks) + d(2 * x - 2, y, ks) * 3.0f +
                                   d(2 * x - 1, y, ks) * 3.0f + d(2 * x, y, ks)) * 0.125f);
        };
        // up up-samples f (level l+1) across rows into Ux, then across
        // columns into U: weights 1/4 and 3/4 by the parity of the line.
        auto up = [&](Func f, Func Ux, Func U, int l, std::vector<Var> lead) {
            std::vector<Expr> ks(lead.begin(), lead.end());
            std::vector<Var> args = {x, y};
            args.insert(args.end(), lead.begin(), lead.end());
            auto src = lv.at(f, l + 1, l + 1);
            Expr h = y / 2;
            // Ux needs no select: U reads Ux's rows only where U is off
            // its ring, and its ring columns read f's ring, 0.
            Ux(args) = select(y % 2 == 0, src(x, h, ks) * 0.25f + src(x, h + 1, ks) * 0.75f,
                              src(x, h + 2, ks) * 0.25f + src(x, h + 1, ks) * 0.75f);
            // Nor clamps on U's reads of Ux: loop partitioning cannot
            // solve a clamp through x / 2, which then stays in the
            // vectorized interior as a gather. Off U's ring the reads
            // stay in Ux's box; on U's ring, where the values are not
            // used, they may go a column past it (Ux's reads of f are
            // clamped).
            auto u = [&](Expr xx, Expr yy, std::vector<Expr> rest) {
                std::vector<Expr> a = {xx, yy};
                a.insert(a.end(), rest.begin(), rest.end());
                return Ux(a);
            };
            Expr w = x / 2;
            U(args) = lv.ring0(l, l, select(x % 2 == 0, u(w, y, ks) * 0.25f + u(w + 1, y, ks) * 0.75f,
                                         u(w + 2, y, ks) * 0.25f + u(w + 1, y, ks) * 0.75f));
        };
        auto name = [](const char *s, int l) { return std::string(s) + "_L" + std::to_string(l); };
        const int top = (K - 1) * 256;
        const float inv = 1.0f / (K - 1);

        // Grey, and its Gaussian pyramid.
        auto colour = lv.at(img_colour, 0, 0);
        grey(x, y) = (cast<float>(colour(x, y, {2})) * 0.299f + cast<float>(colour(x, y, {1})) * 0.587f +
                      cast<float>(colour(x, y, {0})) * 0.114f) / 65535.0f;
        inG.resize(J);
        inDx.resize(J);
        inG[0] = grey;
        for (int l = 1; l < J; l++) {
            inDx[l] = Func(name("Dx_inGPyramid", l));
            inG[l] = Func(name("D_inGPyramid", l));
            down(inG[l - 1], inDx[l], inG[l], l, {});
        }

        // The remapping LUT, and the processed images' Gaussian pyramids.
        Expr fx = cast<float>(r) / 256.0f;
        remap(r) = inv * fx * tf_expf(-fx * fx / 2.0f);
        Expr iLevel = cast<float>(k) * inv;
        Expr idx = clamp(cast<int>(grey(x, y) * float(top)), 0, top);
        gP.resize(J);
        gDx.resize(J);
        gP[0] = Func("gPyramid_L0");
        gP[0](x, y, k) = ((grey(x, y) - iLevel) * 1.0f + iLevel) + remap(idx - k * 256);
        for (int l = 1; l < J; l++) {
            gDx[l] = Func(name("Dx_gPyramid", l));
            gP[l] = Func(name("D_gPyramid", l));
            down(gP[l - 1], gDx[l], gP[l], l, {k});
        }

        // Their Laplacian pyramids, and the output's: per pixel, the
        // levels around the input's intensity, interpolated.
        std::vector<Func> lP(J), outL(J);
        lP[J - 1] = gP[J - 1];
        for (int l = J - 2; l >= 0; l--) {
            Func Ux(name("Ux_lPyramid", l)), U(name("U_lPyramid", l));
            up(gP[l + 1], Ux, U, l, {k});
            lP[l] = Func(name("lPyramid", l));
            lP[l](x, y, k) = gP[l](x, y, k) - U(x, y, k);
        }
        for (int l = 0; l < J; l++) {
            Expr lev = inG[l](x, y) * float(K - 1);
            Expr li = clamp(cast<int>(lev), 0, K - 2);
            Expr w = lev - cast<float>(li);
            outL[l] = Func(name("outLPyramid", l));
            outL[l](x, y) = lP[l](x, y, li) * (1.0f - w) + lP[l](x, y, li + 1) * w;
        }

        // Collapse it, and put the colour back.
        outG.resize(J);
        outG[J - 1] = outL[J - 1];
        for (int l = J - 2; l >= 0; l--) {
            Func Ux(name("Ux_outGPyramid", l)), U(name("U_outGPyramid", l));
            up(outG[l + 1], Ux, U, l, {});
            outG[l] = Func(l == 0 ? std::string("result_ref_gray") : name("outGPyramid", l));
            outG[l](x, y) = U(x, y) + outL[l](x, y);
        }
        Expr ratio = (outG[0](x + 2, y + 2) * (cast<float>(img_colour(x + 2, y + 2, c)) / 65535.0f + 0.01f)) /
                     (grey(x + 2, y + 2) + 0.01f);
        laplacian(x, y, c) = cast<uint16_t>(clamp(ratio, 0.0f, 1.0f) * 65535.0f);
    }

    void schedule() {
        if (auto_schedule) {
            // Mullapudi2016 fails (an internal error) on levels it
            // estimates empty.
            const int coarsest = 1 << (J - 1);
            if (R < coarsest || C < coarsest) {
                std::fprintf(stderr, "local_laplacian: the autoscheduler needs at least %d rows and columns, "
                                     "one pixel at the coarsest level\n", coarsest);
                std::exit(1);
            }
            img_colour.set_estimates({{0, C + 4}, {0, R + 4}, {0, 3}});
            laplacian.set_estimates({{0, C}, {0, R}, {0, 3}});
            return;
        }
        // Halide's apps/local_laplacian CPU schedule: the LUT, the grey
        // image and the pyramids computed whole (the fine levels in
        // parallel over strips of rows, the processed images' with the
        // intensity level inside the row, the coarse ones over k); the
        // down-sampling's row filter inlined (the app's downx is an
        // inline Func); the output in parallel strips of 64 rows, the
        // collapse's four finest levels computed in it row by row into
        // sliding windows: the app's of four rows, these of eight, as the
        // port's up-sampling reads three rows of the level below where the
        // app's reads two (a fourth level then needs five rows, which
        // Halide's check finds). The app's vectors are 8 wide whatever the
        // target (its note: the loads are data dependent, and AVX-512
        // lowers the clock), so these are too.
        const int vec = 8;
        remap.compute_root();
        grey.compute_root().parallel(y, 32).vectorize(x, vec);
        laplacian.reorder(c, x, y).split(y, yo, y, 64, TailStrategy::GuardWithIf).parallel(yo).vectorize(x, vec);
        for (int l = 1; l < J; l++) {
            if (l < 5) {
                inG[l].compute_root().parallel(y, 32).vectorize(x, vec);
                gP[l].compute_root().reorder_storage(x, k, y).reorder(k, y).parallel(y, 8).vectorize(x, vec);
                if (l < J - 1) {
                    outG[l].store_at(laplacian, yo).compute_at(laplacian, y).fold_storage(y, 8).vectorize(x, vec);
                }
            } else {
                inG[l].compute_root();
                gP[l].compute_root().parallel(k);
                if (l < J - 1) {
                    outG[l].compute_root();
                }
            }
        }
        outG[J - 1].compute_root();
        outG[0].compute_at(laplacian, y).vectorize(x, vec);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, k{"k"}, r{"r"}, yo{"yo"};
    Func grey{"img"}, remap{"remapLUT"};
    std::vector<Func> inG, inDx, gP, gDx, outG;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(LocalLaplacian, local_laplacian)
