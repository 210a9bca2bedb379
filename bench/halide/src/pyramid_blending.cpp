// Pyramid blending: polymage/pyramid.go in Halide.
//
// x is the column, y the row and c the channel of the planar images.
// Level l has rows R >> l and columns C >> l inside a ring of two pixels
// on every side; filtered stages are 0 on their ring, and the pyramid
// geometry is the port's. Reads are clamped to the box of what they
// read, as in interpolate.cpp. There is no Halide app: the schedule is
// ours, in the style of Halide's pyramid apps.
#include "Halide.h"
#include "tf_pyramid.h"

#include <string>
#include <vector>

namespace {

using namespace Halide;

class PyramidBlending : public Generator<PyramidBlending> {
public:
    GeneratorParam<int> R{"R", 2048};
    GeneratorParam<int> C{"C", 2048};
    GeneratorParam<int> levels{"levels", 4};

    Input<Buffer<float>> img1{"img1", 3};
    Input<Buffer<float>> img2{"img2", 3};
    Input<Buffer<float>> mask{"mask", 2};
    Output<Buffer<float>> blend{"blend", 3};

    void generate() {
        Expr rows = mask.dim(1).extent() - 4, cols = mask.dim(0).extent() - 4;
        const tf::Levels lv{rows, cols, x, y};
        // down: [1 4 6 4 1]/16 across rows into Dx, then across columns
        // into D, keeping every other line.
        auto down = [&](Func f, Func Dx, Func D, int l, std::vector<Var> lead) {
            std::vector<Expr> ks(lead.begin(), lead.end());
            std::vector<Var> args = {x, y};
            args.insert(args.end(), lead.begin(), lead.end());
            auto s = lv.at(f, l - 1, l - 1);
            Dx(args) = lv.ring0(l, l - 1, (s(x, 2 * y - 4, ks) + s(x, 2 * y - 3, ks) * 4.0f + s(x, 2 * y - 2, ks) * 6.0f +
                                         s(x, 2 * y - 1, ks) * 4.0f + s(x, 2 * y, ks)) * 0.0625f);
            auto d = lv.at(Dx, l, l - 1);
            D(args) = lv.ring0(l, l, (d(2 * x - 4, y, ks) + d(2 * x - 3, y, ks) * 4.0f + d(2 * x - 2, y, ks) * 6.0f +
                                   d(2 * x - 1, y, ks) * 4.0f + d(2 * x, y, ks)) * 0.0625f);
        };
        // expand: [1 6 1]/8 at even lines, [4 4]/8 at odd ones, across
        // rows, then columns, from level l+1 to level l.
        auto expand = [&](Func f, int l, const std::string &name) {
            Func Ux("Ux_" + std::to_string(l) + "_" + name), Uy("Uy_" + std::to_string(l) + "_" + name);
            auto s = lv.at(f, l + 1, l + 1);
            auto one = [](auto g, Expr v) {
                Expr even = (g(v / 2) + g(v / 2 + 1) * 6.0f + g(v / 2 + 2)) * 0.125f;
                Expr odd = (g((v - 1) / 2 + 1) * 4.0f + g((v + 1) / 2 + 1) * 4.0f) * 0.125f;
                return select(v % 2 == 0, even, odd);
            };
            Ux(x, y, c) = lv.ring0(l, l + 1, one([&](Expr i) { return s(x, i, {c}); }, y));
            auto u = lv.at(Ux, l, l + 1);
            Uy(x, y, c) = lv.ring0(l, l, one([&](Expr i) { return u(i, y, {c}); }, x));
            pendingUx.push_back(Ux);
            return Uy;
        };

        // Gaussian pyramids.
        std::vector<Func> g1(levels), g2(levels), gm(levels);
        g1[0] = img1;
        g2[0] = img2;
        gm[0] = mask;
        for (int l = 1; l < levels; l++) {
            auto level = [&](std::vector<Func> &g, const std::string &name, std::vector<Var> lead) {
                Func Dx("Dx_" + std::to_string(l) + "_" + name), Dy("Dy_" + std::to_string(l) + "_" + name);
                down(g[l - 1], Dx, Dy, l, lead);
                g[l] = Dy;
                rowFilters.push_back({Dx, Dy});
            };
            level(g1, "img1", {c});
            level(g2, "img2", {c});
            level(gm, "mask", {});
            gauss.insert(gauss.end(), {g1[l], g2[l], gm[l]});
        }

        // The blended Laplacian pyramid, then its collapse.
        res.resize(levels);
        for (int l = 0; l < levels; l++) {
            Expr lap1 = g1[l](x, y, c), lap2 = g2[l](x, y, c);
            if (l < levels - 1) {
                lap1 = lap1 - expand(g1[l + 1], l, "img1")(x, y, c);
                lap2 = lap2 - expand(g2[l + 1], l, "img2")(x, y, c);
            }
            Expr m = gm[l](x, y);
            res[l] = Func("Res_" + std::to_string(l));
            res[l](x, y, c) = lap1 * m + lap2 * (1.0f - m);
            consumed(res[l]);
        }
        coll.resize(levels);
        coll[levels - 1] = res[levels - 1];
        for (int l = levels - 2; l >= 0; l--) {
            Func u = expand(coll[l + 1], l, "coll");
            if (l == 0) {
                blend(x, y, c) = u(x, y, c) + res[0](x, y, c);
                coll[0] = blend;
            } else {
                coll[l] = Func("coll_" + std::to_string(l));
                coll[l](x, y, c) = u(x, y, c) + res[l](x, y, c);
            }
            consumed(coll[l]);
        }
    }

    // consumed records f as the consumer of the up-sampling row passes
    // made since the last call (its column passes are inlined in it).
    void consumed(Func f) {
        for (Func u : pendingUx) {
            upRows.push_back({u, f});
        }
        pendingUx.clear();
    }

    void schedule() {
        if (auto_schedule) {
            img1.set_estimates({{0, C + 4}, {0, R + 4}, {0, 3}});
            img2.set_estimates({{0, C + 4}, {0, R + 4}, {0, 3}});
            mask.set_estimates({{0, C + 4}, {0, R + 4}});
            blend.set_estimates({{0, C + 4}, {0, R + 4}, {0, 3}});
            return;
        }
        // Every Gaussian level computed whole, in parallel over strips of
        // 8 rows, its row filter a row at a time; the blended levels and
        // the collapse below the finest computed whole likewise, each
        // up-sampling's row pass a row at a time where it is read (its
        // column pass inlined); the output in parallel strips of 32 rows,
        // the finest blended level inlined into it, channels in the row.
        const int vec = natural_vector_size<float>();
        for (auto &p : rowFilters) {
            p.first.compute_at(p.second, y).vectorize(x, vec);
        }
        for (auto &p : upRows) {
            // Res_0 is inlined into the output: its rows are the output's.
            Func at = p.second.name() == res[0].name() ? Func(blend) : p.second;
            p.first.compute_at(at, y).vectorize(x, vec);
        }
        for (Func f : gauss) {
            f.compute_root().parallel(y, 8).vectorize(x, vec);
        }
        for (int l = 1; l < levels; l++) {
            res[l].compute_root().parallel(y, 8).vectorize(x, vec);
            if (l < levels - 1) {
                coll[l].compute_root().parallel(y, 8).vectorize(x, vec);
            }
        }
        blend.reorder(x, c, y).bound(c, 0, 3).split(y, yo, y, 32, TailStrategy::GuardWithIf).parallel(yo).vectorize(x, vec);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"};
    std::vector<std::pair<Func, Func>> rowFilters, upRows;
    std::vector<Func> pendingUx;
    std::vector<Func> gauss, res, coll;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(PyramidBlending, pyramid_blending)
