/* C's arithmetic: promotions, usual conversions, wrapping unsigned and
   narrow types, compound and chained assignments, exact math functions. */
typedef unsigned char byte;

void types(int n, float alpha, double beta, float F[32], double D[32], int I[32],
           byte U[32], short S[32], char C[32], long L[32], unsigned W[32])
{
  int i;
  float t, u;
  double eps = 0.25;
#pragma scop
  t = u = alpha * 2;
  for (i = 0; i < n; i++) {
    F[i] = F[i] * beta + t - u / 4;
    D[i] = D[i] / 3 + I[i] / 2 + (I[i] % 5) - U[i];
    I[i] = (int)(D[i] * 10) + (U[i] > 7) - !S[i];
    U[i] += 200;
    S[i] = S[i] * 1000 - C[i];
    C[i] = (char)(C[i] + U[i]);
    L[i] = L[i] * 100000 + W[i] - I[i];
    W[i] = W[i] - 20u;
    D[i] = D[i] > eps ? sqrt(D[i]) : fabs(D[i] - 1.0);
    F[i] = sqrtf(F[i]) + fabsf(-F[i]) + floorf(F[i] * 3.5f);
    D[i] += ceil(F[i]) - floor(D[i] * 0.3);
    F[i]++;
    --D[i];
    I[i] = I[i] << 2 | (I[i] >> 1) & 3 ^ 5;
  }
#pragma endscop
}
