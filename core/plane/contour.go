package plane

// contour returns the contour of J at level v on the scene's grid, by
// marching squares: in each cell of four nodes, the level crosses every
// edge whose two ends lie on either side of it, at the point where linear
// interpolation along the edge gives v; the crossings are joined in pairs.
// A saddle cell (two opposite corners above) is resolved by the value at
// its centre, the mean of the four.
func contour(s *Scene, v float64) []Line {
	var out []Line
	j := s.J
	for r := 0; r+1 < GridSize; r++ {
		for i := 0; i+1 < GridSize; i++ {
			// Corners counter-clockwise from the top left: (i, r), (i, r+1),
			// (i+1, r+1), (i+1, r); a node's row grows downwards.
			idx := [4][2]int{{i, r}, {i, r + 1}, {i + 1, r + 1}, {i + 1, r}}
			var val [4]float64
			code := 0
			for c, n := range idx {
				val[c] = j[n[1]*GridSize+n[0]]
				if val[c] > v {
					code |= 1 << c
				}
			}
			if code == 0 || code == 15 {
				continue
			}
			cross := func(e int) [2]float64 { // the crossing on edge e, from corner e to e+1
				a, b := idx[e], idx[(e+1)%4]
				va, vb := val[e], val[(e+1)%4]
				t := (v - va) / (vb - va)
				pa, pb := s.Node(a[0], a[1]), s.Node(b[0], b[1])
				return [2]float64{pa[0] + t*(pb[0]-pa[0]), pa[1] + t*(pb[1]-pa[1])}
			}
			var edges []int
			for e := range 4 {
				if (code>>e)&1 != (code>>((e+1)%4))&1 {
					edges = append(edges, e)
				}
			}
			if len(edges) == 4 { // a saddle: pair the edges around the corners on the centre's other side
				centre := (val[0] + val[1] + val[2] + val[3]) / 4
				if (centre > v) == (code&1 != 0) {
					edges = []int{0, 1, 2, 3} // corners 1 and 3 are cut off: edges (0,1) and (2,3)
				} else {
					edges = []int{3, 0, 1, 2} // corners 0 and 2 are cut off: edges (3,0) and (1,2)
				}
			}
			for p := 0; p+1 < len(edges); p += 2 {
				out = append(out, Line{A: cross(edges[p]), B: cross(edges[p+1])})
			}
		}
	}
	return out
}
