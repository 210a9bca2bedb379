package scheduler

import "sort"

// sccs returns the strongly connected components of the graph on nodes
// (statement indices) with the given edges, in a topological order of the
// component graph; among the components that are ready, the one holding
// the textually first statement comes first, so that independent parts
// keep their source order. Each component lists its nodes in increasing
// order.
func sccs(nodes []int, edges [][2]int) [][]int {
	at := map[int]int{}
	for i, n := range nodes {
		at[n] = i
	}
	succ := make([][]int, len(nodes))
	for _, e := range edges {
		a, okA := at[e[0]]
		b, okB := at[e[1]]
		if okA && okB {
			succ[a] = append(succ[a], b)
		}
	}
	comp := tarjan(succ)
	nc := 0
	for _, c := range comp {
		nc = max(nc, c+1)
	}
	members := make([][]int, nc)
	for i, c := range comp {
		members[c] = append(members[c], nodes[i])
	}
	for _, m := range members {
		sort.Ints(m)
	}
	// Kahn's algorithm over the component graph, smallest first statement first.
	indeg := make([]int, nc)
	csucc := make([]map[int]bool, nc)
	for a := range succ {
		for _, b := range succ[a] {
			ca, cb := comp[a], comp[b]
			if ca == cb {
				continue
			}
			if csucc[ca] == nil {
				csucc[ca] = map[int]bool{}
			}
			if !csucc[ca][cb] {
				csucc[ca][cb] = true
				indeg[cb]++
			}
		}
	}
	var order [][]int
	done := make([]bool, nc)
	for len(order) < nc {
		best := -1
		for c := 0; c < nc; c++ {
			if !done[c] && indeg[c] == 0 && (best < 0 || members[c][0] < members[best][0]) {
				best = c
			}
		}
		done[best] = true
		order = append(order, members[best])
		for cb := range csucc[best] {
			indeg[cb]--
		}
	}
	return order
}

// tarjan labels the nodes of the graph succ with component numbers.
func tarjan(succ [][]int) []int {
	n := len(succ)
	index, low, comp := make([]int, n), make([]int, n), make([]int, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	var stack []int
	onStack := make([]bool, n)
	next, nc := 0, 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range succ[v] {
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = nc
				if w == v {
					break
				}
			}
			nc++
		}
	}
	for v := 0; v < n; v++ {
		if index[v] < 0 {
			visit(v)
		}
	}
	return comp
}
