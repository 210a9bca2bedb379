package polybench

import (
	"fmt"
	"strings"
)

// Dataset is one of PolyBench's five standard problem sizes.
type Dataset int

// The PolyBench datasets, from smallest to largest. Large is PolyBench's
// default and the one whose constants appear as array extents in the
// kernel sources.
const (
	Mini Dataset = iota
	Small
	Medium
	Large
	ExtraLarge
)

// numDatasets is the number of valid Dataset values.
const numDatasets = int(ExtraLarge) + 1

var datasetNames = [numDatasets]string{"MINI", "SMALL", "MEDIUM", "LARGE", "EXTRALARGE"}

// String returns the PolyBench name of the dataset ("MINI", "SMALL",
// "MEDIUM", "LARGE", "EXTRALARGE"), as in the MINI_DATASET etc. macros.
func (d Dataset) String() string {
	if d < 0 || int(d) >= numDatasets {
		return fmt.Sprintf("Dataset(%d)", int(d))
	}
	return datasetNames[d]
}

// valid reports whether d is one of the five datasets.
func (d Dataset) valid() bool { return d >= 0 && int(d) < numDatasets }

// ParseDataset parses a dataset name. It accepts the names returned by
// String in any letter case, with or without PolyBench's "_DATASET" suffix
// (e.g. "large", "LARGE_DATASET"); "EXTRA_LARGE" and "EXTRA-LARGE" are
// accepted for ExtraLarge.
func ParseDataset(s string) (Dataset, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	u = strings.TrimSuffix(u, "_DATASET")
	u = strings.NewReplacer("_", "", "-", "").Replace(u)
	for i, name := range datasetNames {
		if u == name {
			return Dataset(i), nil
		}
	}
	return 0, fmt.Errorf("polybench: unknown dataset %q (want one of MINI, SMALL, MEDIUM, LARGE, EXTRALARGE)", s)
}

// Sizes returns the value of each of k's size parameters (the keys are the
// entries of k.Params) for dataset d, as defined by the benchmark's header
// in PolyBench/C 4.2.1. It returns nil for an unknown kernel or an invalid
// dataset. The map is a fresh copy.
func (k Kernel) Sizes(d Dataset) map[string]int64 {
	if !d.valid() {
		return nil
	}
	tab, ok := sizeTable[k.Name]
	if !ok {
		return nil
	}
	out := make(map[string]int64, len(tab))
	for p, v := range tab {
		out[p] = v[d]
	}
	return out
}

// sizeTable gives, per kernel and per size parameter, the values for
// MINI, SMALL, MEDIUM, LARGE and EXTRALARGE, copied from the
// <benchmark>.h headers of PolyBench/C 4.2.1. Parameter names are the
// lower-case forms used in the kernel signatures (N -> n, TSTEPS -> tsteps).
var sizeTable = map[string]map[string][numDatasets]int64{
	// datamining
	"correlation": {
		"m": {28, 80, 240, 1200, 2600},
		"n": {32, 100, 260, 1400, 3000},
	},
	"covariance": {
		"m": {28, 80, 240, 1200, 2600},
		"n": {32, 100, 260, 1400, 3000},
	},

	// linear-algebra/blas
	"gemm": {
		"ni": {20, 60, 200, 1000, 2000},
		"nj": {25, 70, 220, 1100, 2300},
		"nk": {30, 80, 240, 1200, 2600},
	},
	"gemver": {
		"n": {40, 120, 400, 2000, 4000},
	},
	"gesummv": {
		"n": {30, 90, 250, 1300, 2800},
	},
	"symm": {
		"m": {20, 60, 200, 1000, 2000},
		"n": {30, 80, 240, 1200, 2600},
	},
	"syr2k": {
		"m": {20, 60, 200, 1000, 2000},
		"n": {30, 80, 240, 1200, 2600},
	},
	"syrk": {
		"m": {20, 60, 200, 1000, 2000},
		"n": {30, 80, 240, 1200, 2600},
	},
	"trmm": {
		"m": {20, 60, 200, 1000, 2000},
		"n": {30, 80, 240, 1200, 2600},
	},

	// linear-algebra/kernels
	"2mm": {
		"ni": {16, 40, 180, 800, 1600},
		"nj": {18, 50, 190, 900, 1800},
		"nk": {22, 70, 210, 1100, 2200},
		"nl": {24, 80, 220, 1200, 2400},
	},
	"3mm": {
		"ni": {16, 40, 180, 800, 1600},
		"nj": {18, 50, 190, 900, 1800},
		"nk": {20, 60, 200, 1000, 2000},
		"nl": {22, 70, 210, 1100, 2200},
		"nm": {24, 80, 220, 1200, 2400},
	},
	// atax and bicg: EXTRALARGE has a smaller M than LARGE in PolyBench 4.2.1.
	"atax": {
		"m": {38, 116, 390, 1900, 1800},
		"n": {42, 124, 410, 2100, 2200},
	},
	"bicg": {
		"m": {38, 116, 390, 1900, 1800},
		"n": {42, 124, 410, 2100, 2200},
	},
	"doitgen": {
		"nq": {8, 20, 40, 140, 220},
		"nr": {10, 25, 50, 150, 250},
		"np": {12, 30, 60, 160, 270},
	},
	"mvt": {
		"n": {40, 120, 400, 2000, 4000},
	},

	// linear-algebra/solvers
	"cholesky": {
		"n": {40, 120, 400, 2000, 4000},
	},
	"durbin": {
		"n": {40, 120, 400, 2000, 4000},
	},
	"gramschmidt": {
		"m": {20, 60, 200, 1000, 2000},
		"n": {30, 80, 240, 1200, 2600},
	},
	"lu": {
		"n": {40, 120, 400, 2000, 4000},
	},
	"ludcmp": {
		"n": {40, 120, 400, 2000, 4000},
	},
	"trisolv": {
		"n": {40, 120, 400, 2000, 4000},
	},

	// medley
	"deriche": {
		"w": {64, 192, 720, 4096, 7680},
		"h": {64, 128, 480, 2160, 4320},
	},
	"floyd-warshall": {
		"n": {60, 180, 500, 2800, 5600},
	},
	"nussinov": {
		"n": {60, 180, 500, 2500, 5500},
	},

	// stencils
	"adi": {
		"tsteps": {20, 40, 100, 500, 1000},
		"n":      {20, 60, 200, 1000, 2000},
	},
	"fdtd-2d": {
		"tmax": {20, 40, 100, 500, 1000},
		"nx":   {20, 60, 200, 1000, 2000},
		"ny":   {30, 80, 240, 1200, 2600},
	},
	"heat-3d": {
		"tsteps": {20, 40, 100, 500, 1000},
		"n":      {10, 20, 40, 120, 200},
	},
	"jacobi-1d": {
		"tsteps": {20, 40, 100, 500, 1000},
		"n":      {30, 120, 400, 2000, 4000},
	},
	"jacobi-2d": {
		"tsteps": {20, 40, 100, 500, 1000},
		"n":      {30, 90, 250, 1300, 2800},
	},
	"seidel-2d": {
		"tsteps": {20, 40, 100, 500, 1000},
		"n":      {40, 120, 400, 2000, 4000},
	},
}
