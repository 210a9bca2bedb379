package deps

// SetPruneByFootprint switches footprint pruning for the external tests
// and returns the previous setting.
func SetPruneByFootprint(on bool) bool {
	old := pruneByFootprint
	pruneByFootprint = on
	return old
}
