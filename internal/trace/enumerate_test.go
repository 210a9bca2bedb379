package trace

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/presburger"
)

func TestEnumerate(t *testing.T) {
	tests := []struct {
		name   string
		sched  string
		params map[string]int64
		want   []Timed
	}{{
		name:   "sequence, reversed loop",
		sched:  "[N] -> { T[i] -> [1, -i] : 0 <= i < N; S[i, j] -> [0, i + j] : 0 <= i < N and 0 <= j < 2 }",
		params: map[string]int64{"N": 2},
		want: []Timed{
			{Instance{"S", []int64{0, 0}}, []int64{0, 0}},
			{Instance{"S", []int64{0, 1}}, []int64{0, 1}},
			{Instance{"S", []int64{1, 0}}, []int64{0, 1}},
			{Instance{"S", []int64{1, 1}}, []int64{0, 2}},
			{Instance{"T", []int64{1}}, []int64{1, -1}},
			{Instance{"T", []int64{0}}, []int64{1, 0}},
		},
	}, {
		name:  "equal times sorted by statement, instance twice",
		sched: "{ T[] -> [0]; S[i] -> [0] : 0 <= i < 2; S[i] -> [1] : i = 1 }",
		want: []Timed{
			{Instance{"S", []int64{0}}, []int64{0}},
			{Instance{"S", []int64{1}}, []int64{0}},
			{Instance{"T", []int64{}}, []int64{0}},
			{Instance{"S", []int64{1}}, []int64{1}},
		},
	}, {
		name:   "empty",
		sched:  "[N] -> { S[i] -> [i] : 0 <= i < N }",
		params: map[string]int64{"N": 0},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Enumerate(mustMap(t, tt.sched), tt.params)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Enumerate (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEnumerateErrors(t *testing.T) {
	tests := []struct {
		name, sched string
		params      map[string]int64
		want        string
		is          error
	}{
		{name: "limit", sched: "{ S[i] -> [i] : 0 <= i < 100 }", want: "more than 10", is: ErrLimit},
		{name: "unbounded", sched: "{ S[i] -> [i] : i >= 0 }", want: "statement S", is: presburger.ErrInfinite},
		{name: "widths", sched: "{ S[i] -> [i] : 0 <= i < 2; T[i] -> [i, 0] : 0 <= i < 2 }", want: "lengths 1 and 2"},
		{name: "unfixed parameter", sched: "[N] -> { S[i] -> [i] : 0 <= i < N }", want: "N"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := EnumerateLimit(mustMap(t, tt.sched), tt.params, 10)
			if err == nil || !strings.Contains(err.Error(), tt.want) || tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("EnumerateLimit: error %v, want one containing %q (is %v)", err, tt.want, tt.is)
			}
		})
	}
}

func mustMap(t *testing.T, s string) presburger.UnionMap {
	t.Helper()
	m, err := presburger.ParseUnionMap(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
