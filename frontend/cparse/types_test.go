package cparse

import (
	"strings"
	"testing"
)

// TestTyping checks the typed bodies: C's promotions and usual arithmetic
// conversions, with every conversion an explicit cast.
func TestTyping(t *testing.T) {
	tests := []struct{ stmt, want string }{
		{"F[k] = F[k] * 2.0;", "F[k] = (f32)((f64)(F[k]) * 2.0)"},
		{"F[k] = F[k] * 2.0f;", "F[k] = (F[k] * 2.0f)"},
		{"D[k] = I[k] + F[k];", "D[k] = (f64)((f32)(I[k]) + F[k])"},
		{"I[k] = C[k] + UC[k];", "I[k] = ((i32)(C[k]) + (i32)(UC[k]))"},
		{"L[k] = I[k] * U[k];", "L[k] = (i64)((u32)(I[k]) * U[k])"},
		{"L[k] = L[k] + U[k];", "L[k] = (L[k] + (i64)(U[k]))"},
		{"U[k] = I[k] < 3;", "U[k] = (u32)(i32)(I[k] < 3)"},
		{"D[k] = I[k] / 2;", "D[k] = (f64)(I[k] / 2)"},
		{"D[k] = sqrt(F[k]);", "D[k] = sqrt((f64)(F[k]))"},
		{"F[k] = sqrtf(F[k]);", "F[k] = sqrt(F[k])"},
		{"F[k] = fabsf(F[k]) + fabs(F[k]);", "F[k] = (f32)((f64)(abs(F[k])) + abs((f64)(F[k])))"},
		{"I[k] = abs(C[k]);", "I[k] = abs((i32)(C[k]))"},
		{"D[k] = (double)(k);", "D[k] = (f64)(k)"},
		{"D[k] = -D[k];", "D[k] = -(D[k])"},
		{"I[k] = -C[k];", "I[k] = -((i32)(C[k]))"},
		{"I[k] = I[k] % 3 + (I[k] & 1) + (I[k] << 2);", "I[k] = (((I[k] % 3) + (I[k] & 1)) + (I[k] << 2))"},
		{"D[k] = D[k] > 0 && F[k] < 1 ? 1 : 2.5;", "D[k] = (((D[k] > 0.0) && (F[k] < 1.0f)) ? 1.0 : 2.5)"},
		{"D[k] = !I[k];", "D[k] = (f64)(i32)(!((I[k] != 0)))"},
		{"C[k] = C[k] + 1;", "C[k] = (i8)((i32)(C[k]) + 1)"},
		// long + int + char constant + unsigned int is long throughout.
		{"L[k] = 1L + 0x10 + 'a' + 10u;", "L[k] = (((1 + 16) + 97) + 10)"},
		{"C[k] += 1.5;", "C[k] = (i8)((f64)(C[k]) + 1.5)"},
		{"F[k]++;", "F[k] = (F[k] + 1.0f)"},
		{"--S[k];", "S[k] = (i16)((i32)(S[k]) - 1)"},
		{"U[k] = n;", "U[k] = (u32)(n)"},
		{"D[k] = pow(D[k], 2);", "D[k] = pow(D[k], 2.0)"},
		{"I[k] = k > 2 ? k : 2;", "I[k] = ((k > 2) ? k : 2)"},
		{"S[k] = S[k] >> U[k];", "S[k] = (i16)((i32)(S[k]) >> (i32)(U[k]))"},
		{"D[k] = 1e3 + .5 + 2.f + 0x1F;", "D[k] = (((1000.0 + 0.5) + 2.0) + 31.0)"},
		{"L[k] = (L[k] - 5) % -3;", "L[k] = ((L[k] - 5) % -3)"},
		{"I[k] = (int)D[k] + (unsigned char)I[k];", "I[k] = ((i32)(D[k]) + (i32)(u8)(I[k]))"},
	}
	for _, tc := range tests {
		src := "void k(int n, double D[10], float F[10], int I[10], char C[10], unsigned char UC[10],\n" +
			"       short S[10], long L[10], unsigned U[10]) {\n" +
			"  for (int k = 0; k < 10; k++) {\n    " + tc.stmt + "\n  }\n}\n"
		p, err := Parse("k.c", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", tc.stmt, err)
			continue
		}
		if got := p[0].Stmts[0].Body(); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.stmt, got, tc.want)
		}
	}
}

// TestFunctions checks a file of several functions with typedefs, globals,
// comments and declarations that are not compiled.
func TestFunctions(t *testing.T) {
	src := `// several functions
#include <math.h>
#define N 10
typedef char base;
typedef unsigned char byte, octet;
double G[10];
void proto(int n, double A[n]);

static inline void first(int n, base s[10], octet o[10]) {
  for (int i = 0; i < n; i++)
    o[i] = s[i] * 2;
}

void second(void)
{
  int i;
  /* a comment
     over lines */
  for (i = 0; i < 10; i++)
    G[i] = G[i] + 1.0; // globals are live-in and live-out
}

int third(int m) {
  int x;
  x = 0;
#pragma scop
#pragma endscop
  while (x < m) x++;
  return x;
}
`
	progs, err := Parse("f.c", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range progs {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, " "); got != "first second third" {
		t.Fatalf("functions %q", got)
	}
	if got := progs[0].Stmts[0].Body(); got != "o[i] = (u8)((i32)(s[i]) * 2)" {
		t.Errorf("first: %s", got)
	}
	if g := progs[1].Array("G"); g == nil || !g.LiveIn || !g.LiveOut {
		t.Errorf("second: G = %v", g)
	}
	if len(progs[2].Stmts) != 0 || len(progs[2].Arrays) != 0 {
		t.Errorf("third:\n%s", progs[2])
	}
	p, err := ParseFunc("f.c", []byte(src), "second")
	if err != nil || p.Name != "second" {
		t.Fatalf("ParseFunc = %v, %v", p, err)
	}
	if _, err := ParseFunc("f.c", []byte(src), "proto"); err == nil || err.Error() != "f.c: no function proto" {
		t.Errorf("ParseFunc(proto) = %v", err)
	}
}
