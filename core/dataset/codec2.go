package dataset

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Version 2 codes every image with static context models and a range
// asymmetric numeral system (rANS) coder; see doc.go for the layout. This
// file holds the models, the coder and the version 2 Decode and Encode.

// Probabilities are frequencies out of probScale. No symbol may have more
// than maxFreq of them, so that every decoded symbol costs at least
// log2(probScale/maxFreq) ≈ 0.0113 bits: that bounds how many symbols a
// stream of a given length can hold, so the header counts can be checked
// against the payload length before anything is allocated.
const (
	probBits  = 12
	probScale = 1 << probBits // 4096
	maxFreq   = probScale - 32
	ransLow   = 1 << 23 // the coder's state stays in [ransLow, ransLow<<8)
)

// maxItemsPerByte bounds (images + non-zero pixels) per payload byte. Each
// image costs at least two symbols (label, top row) and each non-zero pixel
// two (bucket, low bits). A symbol divides the state by at least
// probScale/maxFreq·(1 - 1/2048), a little more than 2^0.0106; a payload of
// p bytes lets the state grow by at most 2^(8p+9) in all. So a valid
// payload holds at most (8p+9)/0.0106/2 < 378p+425 items, which the
// bound below, 512·(p+8), leaves room for.
const maxItemsPerByte = 512

// Symbols and contexts of the models.
const (
	emptyImage = Rows // the "top row" of an image with no non-zero pixel
	buckets    = 17   // pixel symbol: 0 for zero, k ≥ 1 for grey 16(k-1)+1 … 16k
	levels     = 5    // a neighbour's bucket, quantised for the contexts
	pixelCtx   = levels * levels * levels * levels
	lowCtx     = (buckets - 1) * levels
)

// level quantises a pixel bucket (0–16) to 0–4 for the contexts: zero,
// grey 1–80, 81–160, 161–240, 241–255.
var level = [buckets]uint8{0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4}

// models lists the coding models in the order their tables are stored:
// the size of each alphabet and the number of contexts.
var models = [...]struct {
	name     string
	symbols  int
	contexts int
}{
	{"label", Classes, 1},
	{"top row", Rows + 1, 1},
	{"row count", Rows, 1},
	{"left column", Cols, 1},
	{"column count", Cols, 1},
	{"pixel", buckets, pixelCtx},
	{"low bits", 16, lowCtx},
}

// Table numbers, in the order of models: the pixel model's context c is
// table tPixel+c, the low bits' context c is tLow+c.
const (
	tLabel  = 0
	tTop    = 1
	tRows   = 2
	tLeft   = 3
	tCols   = 4
	tPixel  = 5
	tLow    = tPixel + pixelCtx
	nTables = tLow + lowCtx
)

// tableModel returns the model index of table t.
func tableModel(t int) int {
	switch {
	case t < tPixel:
		return t
	case t < tLow:
		return 5
	}
	return 6
}

// grid geometry: a zero border of one row above and one column each side,
// so that the W, N, NW and NE neighbours of any pixel are in the grid.
const (
	gridCols = Cols + 2
	gridSize = (Rows + 1) * gridCols
)

// pixelContext returns the context of the pixel at grid position g from
// the levels of its neighbours W, N, NW and NE.
func pixelContext(q *[gridSize]uint8, g int) int {
	return int(q[g-1]) + levels*int(q[g-gridCols]) + levels*levels*int(q[g-gridCols-1]) + levels*levels*levels*int(q[g-gridCols+1])
}

// ErrStream is matched (errors.Is) by the error for a version 2 pack whose
// coded stream is inconsistent: it ends early, decodes a symbol that its
// models forbid, or does not end where the coder started.
var ErrStream = errors.New("dataset: corrupt coded stream")

// streamError is an error about the coded stream, worded like a
// FormatError's; it matches ErrStream.
type streamError string

func (e streamError) Error() string { return "dataset: invalid format: coded stream: " + string(e) }

func (e streamError) Is(target error) bool { return target == ErrStream }

// tables holds the frequency tables of a version 2 pack, decoded or built.
type tables struct {
	freq [nTables][]uint16 // nil for an unused context
}

// append appends the tables to b: per table, the number of symbols with a
// non-zero frequency, then for each of them the gap to it from the symbol
// after the previous one, and its frequency, all as uvarints.
func (ts *tables) append(b []byte) []byte {
	for _, f := range ts.freq {
		n := 0
		for _, v := range f {
			if v != 0 {
				n++
			}
		}
		b = binary.AppendUvarint(b, uint64(n))
		next := 0
		for s, v := range f {
			if v != 0 {
				b = binary.AppendUvarint(b, uint64(s-next))
				b = binary.AppendUvarint(b, uint64(v))
				next = s + 1
			}
		}
	}
	return b
}

// parseTables decodes the tables at the start of b into ts, whose slices
// are cut from freq (room for every symbol of every table), and returns
// the rest of b and the number of tables in use.
func parseTables(ts *tables, freq []uint16, b []byte) ([]byte, int, error) {
	p, used := 0, 0
	for t := range ts.freq {
		m := &models[tableModel(t)]
		f := freq[:m.symbols:m.symbols]
		freq = freq[m.symbols:]
		n, next, ok := 0, 0, false
		if n, p, ok = uvarint(b, p); !ok {
			return nil, 0, FormatError(fmt.Sprintf("%s table %d: bad symbol count", m.name, t))
		}
		if n == 0 {
			continue
		}
		if n > m.symbols {
			return nil, 0, FormatError(fmt.Sprintf("%s table %d: %d symbols, want at most %d", m.name, t, n, m.symbols))
		}
		sum := 0
		for range n {
			gap, v := 0, 0
			if gap, p, ok = uvarint(b, p); ok {
				v, p, ok = uvarint(b, p)
			}
			switch {
			case !ok:
				return nil, 0, FormatError(fmt.Sprintf("%s table %d: bad entry", m.name, t))
			case next+gap >= m.symbols:
				return nil, 0, FormatError(fmt.Sprintf("%s table %d: symbol %d, want below %d", m.name, t, next+gap, m.symbols))
			case v == 0 || v > maxFreq:
				return nil, 0, FormatError(fmt.Sprintf("%s table %d: frequency %d, want 1..%d", m.name, t, v, maxFreq))
			}
			f[next+gap] = uint16(v)
			sum += v
			next += gap + 1
		}
		if sum != probScale {
			return nil, 0, FormatError(fmt.Sprintf("%s table %d: frequencies sum to %d, want %d", m.name, t, sum, probScale))
		}
		ts.freq[t] = f
		used++
	}
	return b[p:], used, nil
}

// normalize scales counts to frequencies that sum to probScale, none above
// maxFreq, and non-zero exactly where the count is (but for a table with a
// single symbol, which gives the rest to the next symbol). It returns nil
// for a table never used. The result depends only on counts.
func normalize(counts []uint32) []uint16 {
	var total uint64
	used := 0
	for _, c := range counts {
		total += uint64(c)
		if c != 0 {
			used++
		}
	}
	if total == 0 {
		return nil
	}
	f := make([]uint16, len(counts))
	sum := 0
	for s, c := range counts {
		if c != 0 {
			f[s] = uint16(max(1, min(maxFreq, uint64(c)*probScale/total)))
			sum += int(f[s])
		}
	}
	if used == 1 {
		for s, v := range f {
			if v != 0 {
				f[s] = maxFreq
				f[(s+1)%len(f)] = probScale - maxFreq
				return f
			}
		}
	}
	// Hand out or take back the difference one unit at a time, from the
	// symbol whose frequency is largest (ties: the lowest symbol), within
	// 1..maxFreq. There is room: at least two symbols are used.
	for sum != probScale {
		best := -1
		for s, v := range f {
			if v == 0 || (sum < probScale && v >= maxFreq) || (sum > probScale && v <= 1) {
				continue
			}
			if best < 0 || v > f[best] {
				best = s
			}
		}
		if sum < probScale {
			f[best]++
			sum++
		} else {
			f[best]--
			sum--
		}
	}
	return f
}

// decodeV2 decodes the payload of a version 2 pack whose header is h.
func decodeV2(h header, payload []byte) (*Pack, error) {
	var ts tables
	stream, used, err := parseTables(&ts, make([]uint16, tableSymbols), payload)
	if err != nil {
		return nil, err
	}
	if len(stream) < 4 {
		return nil, streamError(fmt.Sprintf("%d bytes, want at least 4", len(stream)))
	}
	// Decoding tables: per table in use, the first symbol of each run of
	// 1<<hintShift slots, and per symbol its frequency and start.
	d := &ransDecoder{
		x:   binary.BigEndian.Uint32(stream),
		b:   stream,
		p:   4,
		lut: make([]uint8, used*hints),
		fc:  make([]uint32, tableSymbols),
	}
	k, off := 0, 0
	for t, f := range ts.freq {
		d.off[t] = int32(off)
		off += models[tableModel(t)].symbols
		if f == nil {
			d.base[t] = -1
			continue
		}
		d.base[t] = int32(k * hints)
		l := d.lut[k*hints : (k+1)*hints]
		start := 0
		for s, v := range f {
			d.fc[int(d.off[t])+s] = uint32(v)<<16 | uint32(start)
			for h := (start + 1<<hintShift - 1) >> hintShift; h < hints && h<<hintShift < start+int(v); h++ {
				l[h] = uint8(s)
			}
			start += int(v)
		}
		k++
	}
	get := d.get

	p := &Pack{}
	var q [gridSize]uint8
	for s, dst := range []**Set{&p.Train, &p.Test} {
		ns, nz := int(h.n[s]), int(h.nnz[s])
		set := &Set{
			Labels: make([]uint8, ns),
			Start:  make([]int32, ns+1),
			Index:  make([]uint16, nz),
			Value:  make([]uint8, nz),
		}
		name := setNames[s]
		idx, val := set.Index, set.Value
		k := 0
		for i := range ns {
			label, err := get(tLabel)
			if err != nil {
				return nil, err
			}
			set.Labels[i] = uint8(label)
			top, err := get(tTop)
			if err != nil {
				return nil, err
			}
			if top != emptyImage {
				var nr, left, nc int
				if nr, err = get(tRows); err == nil {
					if left, err = get(tLeft); err == nil {
						nc, err = get(tCols)
					}
				}
				if err != nil {
					return nil, err
				}
				nr, nc = nr+1, nc+1
				if top+nr > Rows || left+nc > Cols {
					return nil, streamError(fmt.Sprintf("%s image %d: box of %d×%d pixels at row %d, column %d is outside the image", name, i, nr, nc, top, left))
				}
				if k, err = d.box(&q, idx, val, k, top, nr, left, nc); err != nil {
					return nil, err
				}
				for r := top; r < top+nr; r++ {
					g := (r+1)*gridCols + left + 1
					clear(q[g : g+nc])
				}
			}
			set.Start[i+1] = int32(k)
		}
		if k != len(idx) {
			return nil, FormatError(fmt.Sprintf("%s images hold %d non-zero pixels, header declares %d", name, k, len(idx)))
		}
		*dst = set
	}
	if d.p != len(stream) {
		return nil, streamError(fmt.Sprintf("%d unused bytes", len(stream)-d.p))
	}
	if d.x != ransLow {
		return nil, streamError(fmt.Sprintf("final state %#x, want %#x", d.x, ransLow))
	}
	return p, nil
}

// tableSymbols is the number of symbols of all tables together.
var tableSymbols = func() int {
	n := 0
	for t := range nTables {
		n += models[tableModel(t)].symbols
	}
	return n
}()

// box decodes the pixels of the box of nr rows from top and nc columns
// from left of one image, whose non-zero pixels go to idx[k:] and val[k:],
// and returns the new k. q holds the levels of the pixels decoded so far
// (zero outside the box). It is get, inlined by hand: this loop decodes
// most of the symbols of a pack.
func (d *ransDecoder) box(q *[gridSize]uint8, idx []uint16, val []uint8, k, top, nr, left, nc int) (int, error) {
	x, p, b, lut, fc := d.x, d.p, d.b, d.lut, d.fc
	base, off := &d.base, &d.off
	for r := top; r < top+nr; r++ {
		g := (r+1)*gridCols + left + 1
		for c := left; c < left+nc; c, g = c+1, g+1 {
			// The bucket. This and the low bits below are get, twice.
			t := tPixel + pixelContext(q, g)
			bs := base[t]
			if bs < 0 {
				return k, d.empty(t)
			}
			slot := x & (probScale - 1)
			bucket := uint32(lut[uint32(bs)+slot>>hintShift])
			o := uint32(off[t])
			e := fc[o+bucket]
			for slot >= e&0xffff+e>>16 {
				bucket++
				e = fc[o+bucket]
			}
			x = (e>>16)*(x>>probBits) + slot - e&0xffff
			if x < ransLow {
				if x, p = refill(x, b, p); p < 0 {
					return k, streamError("ends early")
				}
			}
			if bucket == 0 {
				continue
			}
			q[g] = level[bucket]

			// The low bits.
			t = tLow + int(bucket-1)*levels + int(q[g-1])
			bs = base[t]
			if bs < 0 {
				return k, d.empty(t)
			}
			slot = x & (probScale - 1)
			low := uint32(lut[uint32(bs)+slot>>hintShift])
			o = uint32(off[t])
			e = fc[o+low]
			for slot >= e&0xffff+e>>16 {
				low++
				e = fc[o+low]
			}
			x = (e>>16)*(x>>probBits) + slot - e&0xffff
			if x < ransLow {
				if x, p = refill(x, b, p); p < 0 {
					return k, streamError("ends early")
				}
			}
			v := (bucket-1)<<4 + low + 1
			switch {
			case v > 255:
				return k, streamError(fmt.Sprintf("grey level 256 at pixel %d", r*Cols+c))
			case k >= len(idx):
				return k, FormatError("more non-zero pixels than the header declares")
			}
			idx[k], val[k] = uint16(r*Cols+c), uint8(v)
			k++
		}
	}
	d.x, d.p = x, p
	return k, nil
}

// refill reads the one or two bytes that bring the state x, below
// ransLow after a symbol (and at least probScale>>... 2^11), back to
// [ransLow, ransLow<<8), from b[p:]. It returns p = -1 if b ends first.
func refill(x uint32, b []byte, p int) (uint32, int) {
	if p+1 < len(b) {
		x = x<<8 | uint32(b[p])
		p++
		if x < ransLow {
			x = x<<8 | uint32(b[p])
			p++
		}
		return x, p
	}
	for x < ransLow {
		if p >= len(b) {
			return x, -1
		}
		x = x<<8 | uint32(b[p])
		p++
	}
	return x, p
}

// empty returns the error for a symbol of table t, which is not in use.
func (d *ransDecoder) empty(t int) error {
	return streamError(fmt.Sprintf("a symbol of %s table %d, which is empty", models[tableModel(t)].name, t))
}

// A decoding table keeps, for each run of 1<<hintShift slots, the symbol
// of its first slot: the symbol of any slot is that one or a later one.
const (
	hintShift = 6
	hints     = probScale >> hintShift
)

// ransDecoder reads symbols from a rANS stream.
type ransDecoder struct {
	x    uint32
	b    []byte
	p    int
	lut  []uint8        // per table in use, the symbol of each run's first slot
	fc   []uint32       // per table and symbol, frequency<<16 | start
	base [nTables]int32 // where table t's slots start in lut; -1 if unused
	off  [nTables]int32 // where table t's symbols start in fc
}

// get decodes a symbol of table t.
func (d *ransDecoder) get(t int) (int, error) {
	base := d.base[t]
	if base < 0 {
		return 0, d.empty(t)
	}
	slot := d.x & (probScale - 1)
	s := uint32(d.lut[uint32(base)+slot>>hintShift])
	o := uint32(d.off[t])
	e := d.fc[o+s]
	for slot >= e&0xffff+e>>16 {
		s++
		e = d.fc[o+s]
	}
	d.x = (e>>16)*(d.x>>probBits) + slot - e&0xffff
	for d.x < ransLow {
		if d.p >= len(d.b) {
			return 0, streamError("ends early")
		}
		d.x = d.x<<8 | uint32(d.b[d.p])
		d.p++
	}
	return int(s), nil
}

// encodeV2 returns the payload of a version 2 pack holding sets.
func encodeV2(sets [2]*Set) []byte {
	// First pass: the symbols in decoding order, as table<<8 | symbol,
	// and their counts per table.
	nsym := 0
	for _, s := range sets {
		nsym += 5*s.Len() + 2*s.NNZ()
	}
	syms := make([]uint32, 0, nsym+nsym/2)
	counts := make([][]uint32, nTables)
	for t := range counts {
		counts[t] = make([]uint32, models[tableModel(t)].symbols)
	}
	put := func(t, s int) {
		syms = append(syms, uint32(t)<<8|uint32(s))
		counts[t][s]++
	}
	var q [gridSize]uint8
	var dense [Pixels]uint8
	for _, set := range sets {
		for i := range set.Len() {
			put(tLabel, int(set.Labels[i]))
			idx, _ := set.Image(i)
			if len(idx) == 0 {
				put(tTop, emptyImage)
				continue
			}
			set.Dense(dense[:], i)
			top, bottom, left, right := Rows, 0, Cols, 0
			for _, j := range idx {
				r, c := int(j)/Cols, int(j)%Cols
				top, bottom, left, right = min(top, r), max(bottom, r), min(left, c), max(right, c)
			}
			put(tTop, top)
			put(tRows, bottom-top)
			put(tLeft, left)
			put(tCols, right-left)
			for r := top; r <= bottom; r++ {
				g := (r+1)*gridCols + left + 1
				for c := left; c <= right; c, g = c+1, g+1 {
					v := int(dense[r*Cols+c])
					b := (v + 15) >> 4
					put(tPixel+pixelContext(&q, g), b)
					if b != 0 {
						put(tLow+(b-1)*levels+int(q[g-1]), (v-1)&15)
						q[g] = level[b]
					}
				}
			}
			for r := top; r <= bottom; r++ {
				g := (r+1)*gridCols + left + 1
				clear(q[g : g+right-left+1])
			}
		}
	}

	var ts tables
	for t, c := range counts {
		ts.freq[t] = normalize(c)
	}
	var start [nTables][]uint16
	for t, f := range ts.freq {
		if f == nil {
			continue
		}
		st := make([]uint16, len(f))
		sum := 0
		for s, v := range f {
			st[s] = uint16(sum)
			sum += int(v)
		}
		start[t] = st
	}

	// Second pass: rANS codes the symbols in reverse; the bytes come out
	// reversed too, so the decoder reads them forwards.
	out := make([]byte, 0, len(syms)/2+16)
	x := uint32(ransLow)
	for i := len(syms) - 1; i >= 0; i-- {
		t, s := syms[i]>>8, syms[i]&0xff
		f, c := uint32(ts.freq[t][s]), uint32(start[t][s])
		for xmax := ((ransLow >> probBits) << 8) * f; x >= xmax; x >>= 8 {
			out = append(out, byte(x))
		}
		x = (x/f)<<probBits + x%f + c
	}
	out = append(out, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return append(ts.append(nil), out...)
}
