/* camera_pipe(R, C, img[R][C], matrix_3200[3][4], matrix_7000[3][4],
 * process[3][R-48][C-64]) on Halide's pipeline: process[c][i][j] is the
 * output at row i+12, column j+16. */
#include "camera_pipe_halide.h"
#include "tf_halide.h"

void camera_pipe(int R, int C, uint16_t *img, float *m3200, float *m7000, uint8_t *process) {
	tf_init();
	struct halide_type_t u16 = {halide_type_uint, 16, 1}, f32 = {halide_type_float, 32, 1}, u8 = {halide_type_uint, 8, 1};
	halide_dimension_t dimg[2] = {{0, C, 1, 0}, {0, R, C, 0}};
	halide_dimension_t dm1[2] = {{0, 4, 1, 0}, {0, 3, 4, 0}}, dm2[2] = {{0, 4, 1, 0}, {0, 3, 4, 0}};
	halide_dimension_t dout[3] = {{16, C - 64, 1, 0}, {12, R - 48, C - 64, 0}, {0, 3, (R - 48) * (C - 64), 0}};
	halide_buffer_t in = tf_buffer(img, u16, 2, dimg);
	halide_buffer_t m1 = tf_buffer(m3200, f32, 2, dm1), m2 = tf_buffer(m7000, f32, 2, dm2);
	halide_buffer_t out = tf_buffer(process, u8, 3, dout);
	tf_check("camera_pipe", camera_pipe_halide(&in, &m1, &m2, &out));
}
