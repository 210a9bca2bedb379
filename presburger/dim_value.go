package presburger

// DimValue returns the value of set dimension k when it is the same for
// every point and every parameter value (isl_set_dim_is_fixed taken
// exactly, not plainly). An empty set reports 0 and fixed.
func (s Set) DimValue(k int) (v int64, fixed bool, err error) {
	n := s.Space().NOut()
	proj, err := s.ProjectOut(k+1, n-k-1)
	if err == nil {
		proj, err = proj.ProjectOut(0, k)
	}
	if err != nil {
		return 0, false, err
	}
	pt, ok, err := proj.SamplePoint()
	if err != nil || !ok {
		return 0, err == nil, err
	}
	v = pt[len(pt)-1]
	row := make([]int64, 2+s.Space().NParam())
	row[0], row[len(row)-1] = -v, 1
	point, err := SetFromConstraints(proj.Space(), [][]int64{row}, nil)
	if err != nil {
		return 0, false, err
	}
	sub, err := proj.IsSubset(point)
	if err != nil || !sub {
		return 0, false, err
	}
	return v, true, nil
}
