package cparse

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/scop"
)

// TestErrors checks the exact message and position of each rejected input.
// Most inputs are a kernel body wrapped by kernel().
func TestErrors(t *testing.T) {
	if len(errorCases) < 30 {
		t.Fatalf("only %d cases", len(errorCases))
	}
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("k.c", []byte(tc.src))
			if err == nil {
				t.Fatalf("Parse succeeded, want %q", tc.want)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("Parse error (-want +got):\n%s", diff)
			}
			var se *scop.Error
			if !errors.As(err, &se) {
				t.Errorf("error %T is not a *scop.Error", err)
			}
		})
	}
}

// errorCases are rejected inputs with the exact message and position;
// they also seed FuzzParse.
var errorCases = []struct {
	name, src, want string
}{
	{"non-affine subscript", kernel("A[i][j] = A[i * j][0];"),
		"k.c:5:19: non-affine subscript (i * j) of A"},
	{"subscript of a float", kernel("A[i][j] = A[(int)B[i] + B[i]][j];"),
		"k.c:5:19: subscript ((f64)(i32)(B[i]) + B[i]) of A is not an integer"},
	{"scatter under a data-dependent condition", kernel("if (B[i] > 0) A[P[i]][j] = 1;"),
		"k.c:5:21: a write through a data-dependent subscript under a data-dependent condition is not supported (its element would be written where the condition is false)"},
	{"data-dependent bound", "void k(int n, double x, double A[10]) {\n  int i;\n  for (i = 0; i < x; i++)\n    A[i] = 0.0;\n}\n",
		"k.c:3:19: data-dependent loop bound: reads x"},
	{"data-dependent condition over its own writes", kernel("if (B[i] > 0) { A[i][j] = 2; B[i] = 1; }"),
		"k.c:5:36: B is written under a data-dependent condition that reads it (the condition is evaluated once per statement here); compute the condition into a variable first"},
	{"non-affine bound", "void k(int n, double A[10]) {\n  int i;\n  for (i = 0; i < n * n; i++)\n    A[i] = 0.0;\n}\n",
		"k.c:3:19: non-affine loop bound (n * n)"},
	{"non-affine condition", kernel("if (i * j > 2) A[i][j] = 1;"),
		"k.c:5:11: non-affine condition (i * j)"},
	{"pointer parameter", "void k(int n, double *A) {\n}\n",
		"k.c:1:22: pointer parameter A must be restrict-qualified (double *restrict A) or declared as an array (double A[N]): tilefuse assumes that parameters do not overlap"},
	{"pointer dereference", kernel("A[i][j] = *B;"),
		"k.c:5:17: pointers are not supported"},
	{"member access", kernel("A[i][j] = s.x;"),
		"k.c:5:18: member access . is not supported"},
	{"arrow", kernel("A[i][j] = s->x;"),
		"k.c:5:18: member access -> is not supported"},
	{"non-math call", kernel("A[i][j] = foo(i);"),
		"k.c:5:17: call to non-math function foo"},
	{"math arity", kernel("A[i][j] = sqrt(1.0, 2.0);"),
		"k.c:5:17: sqrt takes 1 argument, got 2"},
	{"while without a counter", kernel("while (B[i] > 0) B[i] -= 1;"),
		"k.c:5:7: while loop without a bound: its body must end by stepping a counter by a constant (k++) that its condition bounds, as in while (k < n && A[k] > 0) { ...; k++; }"},
	{"while over an iterator", kernel("while (i < n) i++;"),
		"k.c:5:21: assignment to loop iterator i (a while loop's counter must be a variable of its own)"},
	{"while without a bound", whileKernel("k = 0; while (B[k] > 0) { A[i][k] = 1; k++; }"),
		"k.c:5:21: while loop without a bound: no conjunct of (B[k] > 0) compares a counter (k) with a bound in the direction it moves"},
	{"while bounded the wrong way", whileKernel("k = n; while (k < n && B[k] > 0) k--;"),
		"k.c:5:21: while loop without a bound: no conjunct of ((k < n) && (B[k] > 0)) compares a counter (k) with a bound in the direction it moves"},
	{"while counter written in the body", whileKernel("k = 0; while (k < n && B[k] > 0) { k = 3; k++; }"),
		"k.c:5:42: k is a counter of the while loop at k.c:5:14: only the body's last statements may change it"},
	{"while counter without a start", whileKernel("while (k < n && B[k] > 0) k++;"),
		"k.c:5:7: counter k of the while loop must be assigned its start (an affine expression of iterators and size parameters) just before the loop"},
	{"while counter with a data-dependent start", whileKernel("k = P[i]; while (k < n && B[k] > 0) k++;"),
		"k.c:5:11: data-dependent start of counter k: reads P"},
	{"scatter in a data-dependent while", whileKernel("k = 0; while (k < n && B[k] > 0) { A[P[k]][0] = 1; k++; }"),
		"k.c:5:42: a write through a data-dependent subscript under a data-dependent condition is not supported (its element would be written where the condition is false)"},
	{"do", kernel("do A[i][j] = 0; while (0);"),
		"k.c:5:7: do-while loop in the scop region is not supported"},
	{"goto", kernel("goto out;"),
		"k.c:5:7: goto statement in the scop region is not supported"},
	{"break", kernel("break;"),
		"k.c:5:7: break statement in the scop region is not supported"},
	{"continue", kernel("continue;"),
		"k.c:5:7: continue statement in the scop region is not supported"},
	{"return", kernel("return;"),
		"k.c:5:7: return statement in the scop region is not supported"},
	{"switch", kernel("switch (i) { case 0: A[i][j] = 0; }"),
		"k.c:5:7: switch statement in the scop region is not supported"},
	{"label", kernel("here: A[i][j] = 0;"),
		"k.c:5:7: label in the scop region is not supported"},
	{"assign iterator", kernel("i = 3;"),
		"k.c:5:7: assignment to loop iterator i"},
	{"increment iterator", kernel("j++;"),
		"k.c:5:7: assignment to loop iterator j"},
	{"assign parameter", kernel("n = 3;"),
		"k.c:5:7: assignment to size parameter n"},
	{"unknown identifier", kernel("A[i][j] = q;"),
		"k.c:5:17: unknown identifier q"},
	{"too few subscripts", kernel("A[i][j] = A[i];"),
		"k.c:5:17: wrong number of subscripts for A: got 1, want 2"},
	{"too many subscripts", kernel("B[i][j] = 0;"),
		"k.c:5:7: wrong number of subscripts for B: got 2, want 1"},
	{"missing endscop", "void k(int n, double A[10]) {\n#pragma scop\n  A[0] = 1.0;\n}\n",
		"k.c:2:1: #pragma scop without #pragma endscop"},
	{"endscop first", "void k(int n, double A[10]) {\n#pragma endscop\n}\n",
		"k.c:2:1: #pragma endscop without #pragma scop"},
	{"nested pragma", "void k(int n, double A[10]) {\n  {\n#pragma scop\n  }\n}\n",
		"k.c:3:1: #pragma scop must be at the top level of the function body"},
	{"pragma outside function", "#pragma scop\nvoid k(void) {}\n",
		"k.c:1:1: #pragma scop outside a function"},
	{"missing semicolon", kernel("A[i][j] = 0 }"),
		"k.c:5:19: expected ';', found '}'"},
	{"missing operand", kernel("A[i][j] = ;"),
		"k.c:5:17: expected expression, found ';'"},
	{"keyword as expression", kernel("A[i][j] = while;"),
		"k.c:5:17: expected expression, found keyword while"},
	{"unterminated comment", "void k(int n) {\n  /* no end\n}\n",
		"k.c:2:3: unterminated comment"},
	{"unterminated char", kernel("A[i][j] = 'a;"),
		"k.c:5:17: unterminated character constant"},
	{"invalid character", kernel("A[i][j] = @;"),
		"k.c:5:17: invalid character '@'"},
	{"string literal", kernel("A[i][j] = \"x\";"),
		"k.c:5:17: string literals are not supported"},
	{"sizeof", kernel("A[i][j] = sizeof(double);"),
		"k.c:5:17: sizeof is not supported"},
	{"struct", "struct s { int x; };\n",
		"k.c:1:1: struct types are not supported"},
	{"long double", "void k(long double x) {}\n",
		"k.c:1:8: long double is not supported"},
	{"constant too large", kernel("A[i][j] = 99999999999999999999;"),
		"k.c:5:17: integer constant 99999999999999999999 is too large"},
	{"wrong loop direction", "void k(int n, double A[10]) {\n  int i;\n  for (i = 0; i > n; i++)\n    A[i] = 0.0;\n}\n",
		"k.c:3:15: loop condition (i > n) does not bound the increasing iterator i from above"},
	{"loop condition form", "void k(int n, double A[10]) {\n  int i;\n  for (i = 0; i != n; i++)\n    A[i] = 0.0;\n}\n",
		"k.c:3:15: loop condition (i != n) must compare the iterator i with a bound"},
	{"bound uses iterator", "void k(int n, double A[10]) {\n  int i;\n  for (i = 0; i < n - i; i++)\n    A[i] = 0.0;\n}\n",
		"k.c:3:19: loop bound (n - i) depends on the iterator i"},
	{"parametric step", "void k(int n, double A[10]) {\n  int i;\n  for (i = 0; i < n; i += n)\n    A[i] = 0.0;\n}\n",
		"k.c:3:27: loop increment n must be a positive constant"},
	{"zero step", "void k(int n, double A[10]) {\n  int i;\n  for (i = 0; i < n; i += 0)\n    A[i] = 0.0;\n}\n",
		"k.c:3:27: loop increment 0 must be a positive constant"},
	{"step form", "void k(int n, double A[10]) {\n  int i;\n  for (i = 1; i < n; i *= 2)\n    A[i] = 0.0;\n}\n",
		"k.c:3:22: loop increment must be i++, i--, i += c or i -= c"},
	{"no condition", "void k(int n, double A[10]) {\n  int i;\n  for (i = 0; ; i++)\n    A[i] = 0.0;\n}\n",
		"k.c:3:3: for loop without a condition"},
	{"iterator reused", "void k(int n, double A[10]) {\n  int i;\n  for (i = 0; i < n; i++)\n    for (i = 0; i < n; i++)\n      A[i] = 0.0;\n}\n",
		"k.c:4:10: iterator i is already used by an enclosing loop"},
	{"iterator outside loop", "void k(int n, double A[10]) {\n  int i;\n  for (i = 0; i < n; i++)\n    A[i] = 0.0;\n  A[i] = 1.0;\n}\n",
		"k.c:5:5: iterator i used outside its loop"},
	{"float iterator", "void k(int n, double A[10]) {\n  double x;\n  for (x = 0; x < n; x++)\n    A[0] = x;\n}\n",
		"k.c:3:8: loop iterator x must be a local integer variable"},
	{"increment in expression", kernel("A[i][j] = B[i]++;"),
		"k.c:5:17: increment inside an expression is not supported"},
	{"assignment in expression", kernel("A[i][j] = (B[i] = 1) + 1;"),
		"k.c:5:18: assignment inside an expression is not supported"},
	{"comma operator", kernel("A[i][j] = 1, B[i] = 2;"),
		"k.c:5:7: comma operator is not supported"},
	{"no assignment", kernel("A[i][j];"),
		"k.c:5:7: expression statement A[i][j] assigns nothing"},
	{"float remainder", kernel("A[i][j] = A[i][j] % 2;"),
		"k.c:5:17: operands of % are not integers"},
	{"float subscript", kernel("A[i][j] = B[1.5];"),
		"k.c:5:19: subscript 1.5 of B is not an integer"},
	{"negative dividend", kernel("A[i][j] = B[(i - 5) / 2];"),
		"k.c:5:19: subscript ((i - 5) / 2) of B divides a value that may be negative"},
	{"negative dividend in a data-dependent condition", kernel("if (B[(i - 5) / 2] > 0) A[i][j] = 1;"),
		"k.c:5:13: subscript ((i - 5) / 2) of B divides a value that may be negative"},
	{"division by zero", "void k(int n, double A[10]) {\n  int i;\n  for (i = 0; i < n / 0; i++)\n    A[i] = 0.0;\n}\n",
		"k.c:3:19: division by zero in loop bound (n / 0)"},
	{"floord divisor", "void k(int n, double A[10]) {\n  int i;\n  for (i = 0; i < floord(n, n); i++)\n    A[i] = 0.0;\n}\n",
		"k.c:3:29: floord needs a positive constant divisor"},
	{"extent", "void k(int n, double x, double A[x]) {\n}\n",
		"k.c:1:34: extent x of A must be an affine expression of constants and size parameters"},
	{"missing extent", "void k(int n, double A[][10]) {\n}\n",
		"k.c:1:22: array parameter A needs an extent in every dimension: declare them (double A[N][M]) or give them in the function body with #pragma tilefuse array A[N][M], in constants and size parameters"},
	{"redeclaration", "void k(int n) {\n  int n;\n}\n",
		"k.c:2:7: redeclaration of n"},
	{"shadowing", "void k(int n, double A[10]) {\n  int i;\n  for (i = 0; i < n; i++) {\n    int n;\n  }\n}\n",
		"k.c:4:9: declaration of n shadows an earlier declaration"},
	{"outside initializer", "void k(int n, double A[10]) {\n  double e = n;\n#pragma scop\n  A[0] = e;\n#pragma endscop\n}\n",
		"k.c:2:14: initializer of e outside the scop region must be a constant"},
	{"never written", "void k(int n, double A[10]) {\n  double t[10];\n  A[0] = t[0];\n}\n",
		"k.c:3:10: t is read but never written, and is not live-in"},
	{"isl keyword", "void k(int floor) {\n}\n",
		"k.c:1:12: parameter name floor is reserved in isl notation"},
	{"mid-line directive", "void k(int n) { #pragma scop\n}\n",
		"k.c:1:17: unexpected '#' in the middle of a line"},
	{"else without if", kernel("else A[i][j] = 0;"),
		"k.c:5:7: else without if"},
}

// kernel wraps statements as line 5 (from column 7) of a function with
// two loops i and j, a 2-D array A, a 1-D array B and an int array P.
func kernel(body string) string {
	return "void k(int n, double A[100][100], double B[100], int P[100]) {\n" +
		"  int i, j;\n" +
		"  for (i = 0; i < n; i++)\n" +
		"    for (j = 0; j < n; j++) {\n" +
		"      " + body + "\n" +
		"    }\n" +
		"}\n"
}

// whileKernel is kernel with a third local, k, for while loops' counters.
func whileKernel(body string) string {
	return "void k(int n, double A[100][100], double B[100], int P[100]) {\n" +
		"  int i, j, k;\n" +
		"  for (i = 0; i < n; i++)\n" +
		"    for (j = 0; j < n; j++) {\n" +
		"      " + body + "\n" +
		"    }\n" +
		"}\n"
}
