/* bilateral_grid(R, C, img[R][C], filtered[R][C]) on Halide's own
 * apps/bilateral_grid with the port's range sigma, 0.1 (ten intensity
 * bins), and its spatial one, 8 (the generator's default). Timed only. */
#include "bilateral_grid_app.h"
#include "tf_halide.h"

void bilateral_grid(int R, int C, float *img, float *filtered) {
	tf_init();
	struct halide_type_t f32 = {halide_type_float, 32, 1};
	halide_dimension_t din[2] = {{0, C, 1, 0}, {0, R, C, 0}};
	halide_dimension_t dout[2] = {{0, C, 1, 0}, {0, R, C, 0}};
	halide_buffer_t in = tf_buffer(img, f32, 2, din);
	halide_buffer_t out = tf_buffer(filtered, f32, 2, dout);
	tf_check("bilateral_grid (Halide's app)", bilateral_grid_app(&in, 0.1f, &out));
}
