package scheduler

import "math/big"

// orthComplement returns integer rows spanning the orthogonal complement
// of the rows of h in Q^n: the non-zero rows of Pluto's projection
// I - hᵀ(h hᵀ)⁻¹h, scaled to coprime integers with the first non-zero
// entry positive, keeping only rows that add to the rank. The rows of h
// must be linearly independent.
func orthComplement(h [][]int64, n int) [][]int64 {
	r := len(h)
	if r == 0 {
		out := make([][]int64, n)
		for i := range out {
			out[i] = make([]int64, n)
			out[i][i] = 1
		}
		return out
	}
	// inv = (h hᵀ)⁻¹ by Gauss-Jordan on [h hᵀ | I].
	aug := make([][]*big.Rat, r)
	for i := 0; i < r; i++ {
		aug[i] = make([]*big.Rat, 2*r)
		for j := 0; j < r; j++ {
			var dot int64
			for k := 0; k < n; k++ {
				dot += h[i][k] * h[j][k]
			}
			aug[i][j] = big.NewRat(dot, 1)
			aug[i][r+j] = new(big.Rat)
		}
		aug[i][r+i].SetInt64(1)
	}
	for col := 0; col < r; col++ {
		piv := col
		for piv < r && aug[piv][col].Sign() == 0 {
			piv++
		}
		aug[col], aug[piv] = aug[piv], aug[col]
		inv := new(big.Rat).Inv(aug[col][col])
		for j := range aug[col] {
			aug[col][j].Mul(aug[col][j], inv)
		}
		for i := 0; i < r; i++ {
			if i == col || aug[i][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(aug[i][col])
			for j := range aug[i] {
				aug[i][j].Sub(aug[i][j], new(big.Rat).Mul(f, aug[col][j]))
			}
		}
	}
	// p[a][b] = δ_ab - Σ_ij h[i][a] inv[i][j] h[j][b].
	var out [][]int64
	var echelon [][]*big.Rat
	for a := 0; a < n; a++ {
		row := make([]*big.Rat, n)
		for b := 0; b < n; b++ {
			v := new(big.Rat)
			if a == b {
				v.SetInt64(1)
			}
			for i := 0; i < r; i++ {
				for j := 0; j < r; j++ {
					t := new(big.Rat).Mul(aug[i][r+j], big.NewRat(h[i][a]*h[j][b], 1))
					v.Sub(v, t)
				}
			}
			row[b] = v
		}
		ints := integerRow(row)
		if ints == nil || !addsRank(&echelon, row) {
			continue
		}
		out = append(out, ints)
	}
	return out
}

// integerRow scales a rational row to coprime integers with its first
// non-zero entry positive; nil for a zero row.
func integerRow(row []*big.Rat) []int64 {
	lcm := big.NewInt(1)
	for _, v := range row {
		d := v.Denom()
		g := new(big.Int).GCD(nil, nil, lcm, d)
		lcm.Mul(lcm, new(big.Int).Quo(d, g))
	}
	out := make([]int64, len(row))
	var g int64
	sign := int64(0)
	for i, v := range row {
		x := new(big.Int).Mul(v.Num(), new(big.Int).Quo(lcm, v.Denom()))
		out[i] = x.Int64()
		if out[i] != 0 && sign == 0 {
			sign = 1
			if out[i] < 0 {
				sign = -1
			}
		}
		g = gcd(g, out[i])
	}
	if g == 0 {
		return nil
	}
	for i := range out {
		out[i] = out[i] / g * sign
	}
	return out
}

// addsRank reports whether row is independent of the rows in echelon
// (kept in reduced form), and adds it if so.
func addsRank(echelon *[][]*big.Rat, row []*big.Rat) bool {
	v := make([]*big.Rat, len(row))
	for i := range row {
		v[i] = new(big.Rat).Set(row[i])
	}
	for _, e := range *echelon {
		p := 0
		for e[p].Sign() == 0 {
			p++
		}
		if v[p].Sign() == 0 {
			continue
		}
		f := new(big.Rat).Quo(v[p], e[p])
		for j := range v {
			v[j].Sub(v[j], new(big.Rat).Mul(f, e[j]))
		}
	}
	for _, x := range v {
		if x.Sign() != 0 {
			*echelon = append(*echelon, v)
			return true
		}
	}
	return false
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
