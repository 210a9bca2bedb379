package calc

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"assign and print", "A := { S[i] : 0 <= i < 10 };\nA;", "A := { S[i] : 0 <= i < 10 };\nA;\n"},
		{"params literal", "[N] -> { S[i] : i < N };", "[N] -> { S[i] : i < N };\n"},
		{"params literal spaced", "[N, M]\n  ->\n{ S[i] };", "[N, M]\n  ->\n{ S[i] };\n"},
		{"comments", "# header\nA; # trailing\n", "A;\n"},
		{"comment in literal", "{ A[i] # not the end: }\n : i > 0 };", "{ A[i] # not the end: }\n : i > 0 };\n"},
		{"left assoc", "A - B + C;", "((A - B) + C);\n"},
		{"product binds tighter", "A + B * C;", "(A + (B * C));\n"},
		{"join and gist", "A . B % C * D;", "(((A . B) % C) * D);\n"},
		{"comparison lowest", "A + B <= C * D;", "((A + B) <= (C * D));\n"},
		{"equality", "A = B;", "(A = B);\n"},
		{"prefix below product", "dom M * S;", "((dom M) * S);\n"},
		{"prefix above sum", "dom M + ran M;", "((dom M) + (ran M));\n"},
		{"application binds tighter than prefix", "dom M(S);", "(dom (M)(S));\n"},
		{"inverse binds tighter than prefix", "ran M^-1;", "(ran (M)^-1);\n"},
		{"postfix chain", "M^-1(S)^-1;", "(((M)^-1)(S))^-1;\n"},
		{"nested prefix", "params sample deltas M;", "(params (sample (deltas M)));\n"},
		{"all prefixes", "lexmin A; lexmax A; coalesce A;", "(lexmin A);\n(lexmax A);\n(coalesce A);\n"},
		{"parentheses", "(A + B) * C;", "((A + B) * C);\n"},
		{"literal operands", "{ A[i] } + [N] -> { A[N] };", "({ A[i] } + [N] -> { A[N] });\n"},
		{"names with digits", "a_1 := b2;", "a_1 := b2;\n"},
		{"empty program", "  # nothing\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prog, err := Parse("t.calc", tc.src)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tc.want, prog.String()); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tc.src, diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"missing semicolon", "A := B\nC;", "t.calc:2:1: expected an operator or ';', found name \"C\""},
		{"missing semicolon at end", "A", "t.calc:1:2: expected an operator or ';', found end of input"},
		{"unterminated literal", "A := { S[i] : i > 0;\n", "t.calc:1:6: unterminated literal: missing '}'"},
		{"bad params", "[N] { S[i] };", "t.calc:1:1: expected '->' and '{' after the parameter list of a literal"},
		{"unterminated params", "[N, M;", "t.calc:1:1: unterminated parameter list: missing ']'"},
		{"bad character", "A := B & C;", "t.calc:1:8: unexpected character '&'"},
		{"bad power", "M^2;", "t.calc:1:2: expected ^-1 (the only power is the inverse)"},
		{"bad power suffix", "M^-12;", "t.calc:1:2: expected ^-1 (the only power is the inverse)"},
		{"chained comparison", "A = B = C;", "t.calc:1:7: comparisons do not chain; use parentheses"},
		{"assign to keyword", "dom := A;", "t.calc:1:1: cannot assign to \"dom\": it is an operator"},
		{"prefix without operand", "dom;", "t.calc:1:4: expected a literal, a name or '(', found ';'"},
		{"unclosed paren", "(A + B;", "t.calc:1:7: expected ')', found ';'"},
		{"unclosed call", "M(S;", "t.calc:1:4: expected ')', found ';'"},
		{"empty statement", ";", "t.calc:1:1: expected a literal, a name or '(', found ';'"},
		{"lone colon", "A : B;", "t.calc:1:3: unexpected character ':'"},
		{"column after tab", "\tA B;", "t.calc:1:4: expected an operator or ';', found name \"B\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("t.calc", tc.src)
			if err == nil {
				t.Fatalf("Parse(%q) succeeded, want error %q", tc.src, tc.want)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("Parse(%q) error (-want +got):\n%s", tc.src, diff)
			}
		})
	}
}

// TestStringRoundTrip checks that the parenthesised form parses to itself,
// which the differential tests rely on when they print minimised scripts.
func TestStringRoundTrip(t *testing.T) {
	src := "X := dom M(S)^-1 . N % { A[i] } + B - C * D <= E;\nparams lexmin (A + B);\n"
	p1, err := Parse("a", src)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := Parse("b", p1.String())
	if err != nil {
		t.Fatalf("reparse %q: %v", p1.String(), err)
	}
	if diff := cmp.Diff(p1.String(), p2.String()); diff != "" {
		t.Errorf("round trip (-first +second):\n%s", diff)
	}
}
