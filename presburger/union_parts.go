package presburger

// ExtractSet returns the part of s in the space of tuple name (a set's
// tuple name), and false when s has no such part.
func (s UnionSet) ExtractSet(name string) (Set, bool) {
	for _, r := range s.u.rels {
		if !r.space.IsMap && r.space.Out.Name == name {
			return Set{r}, true
		}
	}
	return Set{}, false
}
