package classhub

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"softmaxdemo/core/class"
	"softmaxdemo/core/dataset"
	"softmaxdemo/core/modelfile"
)

// presenter is the handler of a path that only the presenter may use:
// without the key, 403.
func (h *Hub) presenter(handle http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !h.isPresenter(r) {
			refuse(w, &class.Refusal{Status: http.StatusForbidden, Code: class.CodeKey,
				Message: "only the presenter may do this: the request needs the presenter's key"})
			return
		}
		handle(w, r)
	}
}

// presenterJSON reads a presenter's JSON body of at most 4 kB.
func presenterJSON(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if ref := wantType(r, "application/json"); ref != nil {
		refuse(w, ref)
		return nil, false
	}
	body, ref := readBody(w, r, 4<<10)
	if ref != nil {
		refuse(w, ref)
		return nil, false
	}
	return body, true
}

// postState takes where the presenter is, and tells every page.
func (h *Hub) postState(w http.ResponseWriter, r *http.Request) {
	body, ok := presenterJSON(w, r)
	if !ok {
		return
	}
	s, err := class.DecodeState(body)
	if err != nil {
		refuse(w, badRequest(err))
		return
	}
	h.mu.Lock()
	if s != h.state {
		h.state = s
		h.publish(toAll, s)
	}
	h.mu.Unlock()
	reply(w, class.Ack{}.Encode())
}

// postQuestion opens, reveals, opens again or closes the question.
func (h *Hub) postQuestion(w http.ResponseWriter, r *http.Request) {
	body, ok := presenterJSON(w, r)
	if !ok {
		return
	}
	q, err := class.DecodeQuestion(body)
	if err != nil {
		refuse(w, badRequest(err))
		return
	}
	h.mu.Lock()
	if !q.Same(h.question) || q.Revealed != h.question.Revealed {
		if !q.Same(h.question) {
			clear(h.answers)
			h.counts = make([]int, len(q.Choices))
		}
		h.question = q
		h.publish(toStudents, h.poll(false))
		h.publish(toPresenter, h.poll(true))
	}
	h.mu.Unlock()
	reply(w, class.Ack{}.Encode())
}

// clearLines forgets the lines shown (each phone's Seq stays, so that
// a line sent again is not shown again).
func (h *Hub) clearLines(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	for _, e := range h.lines {
		e.line = nil
	}
	h.publish(toPresenter, class.Cleared{})
	h.mu.Unlock()
	reply(w, class.Ack{}.Encode())
}

// A thetaBlob is an uploaded θ: its version, its wire form and checksum,
// and its wire form gzipped (made when first asked for; nil when gzip
// saves too little).
type thetaBlob struct {
	version  uint64
	checksum string
	raw      []byte
	gzOnce   sync.Once
	gz       []byte
}

// gzipped returns the θ's wire form gzipped, or nil if that saves less
// than a tenth.
func (t *thetaBlob) gzipped() []byte {
	t.gzOnce.Do(func() {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
		zw.Write(t.raw)
		zw.Close()
		if b.Len() < len(t.raw)*9/10 {
			t.gz = b.Bytes()
		}
	})
	return t.gz
}

// thetaVersion is the latest θ's announcement. h.mu is held.
func (h *Hub) thetaVersion() class.ThetaVersion {
	if h.theta == nil {
		return class.ThetaVersion{}
	}
	return class.ThetaVersion{Version: h.theta.version, Checksum: h.theta.checksum}
}

// postTheta takes the presenter's θ as a new version and announces it.
func (h *Hub) postTheta(w http.ResponseWriter, r *http.Request) {
	if ref := wantType(r, "application/octet-stream"); ref != nil {
		refuse(w, ref)
		return
	}
	body, ref := readBody(w, r, class.MaxThetaBytes)
	if ref != nil {
		refuse(w, ref)
		return
	}
	if _, err := class.DecodeTheta(body); err != nil {
		refuse(w, badRequest(err))
		return
	}
	h.mu.Lock()
	h.thetaN++
	h.theta = &thetaBlob{version: h.thetaN, checksum: class.ChecksumWire(body), raw: body}
	h.publish(toAll, h.thetaVersion())
	h.mu.Unlock()
	reply(w, class.Ack{}.Encode())
}

// getTheta serves the latest θ, to anyone: its wire form (gzipped where
// the page accepts it and it saves), ETag "version", and the headers
// X-Theta-Version and X-Theta-Checksum.
func (h *Hub) getTheta(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	t := h.theta
	h.mu.Unlock()
	if t == nil {
		refuse(w, &class.Refusal{Status: http.StatusNotFound, Code: class.CodeNotFound, Message: "the presenter has sent no θ yet"})
		return
	}
	hdr := w.Header()
	etag := `"` + strconv.FormatUint(t.version, 10) + `"`
	hdr.Set("ETag", etag)
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("Vary", "Accept-Encoding")
	hdr.Set("X-Theta-Version", strconv.FormatUint(t.version, 10))
	hdr.Set("X-Theta-Checksum", t.checksum)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hdr.Set("Content-Type", "application/octet-stream")
	body := t.raw
	if acceptsGzip(r) {
		if gz := t.gzipped(); gz != nil {
			hdr.Set("Content-Encoding", "gzip")
			body = gz
		}
	}
	hdr.Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(name) == "gzip" && strings.ReplaceAll(strings.TrimSpace(q), " ", "") != "q=0" {
			return true
		}
	}
	return false
}

// getDrawings serves the drawings kept with numbers above the query's
// after (0 by default) as a list (class.EncodeDigitList).
func (h *Hub) getDrawings(w http.ResponseWriter, r *http.Request) {
	after := uint64(0)
	if s := r.URL.Query().Get("after"); s != "" {
		var err error
		if after, err = strconv.ParseUint(s, 10, 32); err != nil {
			refuse(w, &class.Refusal{Status: http.StatusBadRequest, Code: class.CodeInvalid, Message: "after=" + strconv.Quote(s) + " is not a drawing's number"})
			return
		}
	}
	h.mu.Lock()
	list := h.digits.list(uint32(after))
	h.mu.Unlock()
	b, err := class.EncodeDigitList(list)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(b)
}

// removeDrawing removes drawing {n}: it is kept out of the class's
// digits, the file records it, and the presenter's pages are told.
// Removing it again changes nothing.
func (h *Hub) removeDrawing(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.ParseUint(r.PathValue("n"), 10, 32)
	h.mu.Lock()
	defer h.mu.Unlock()
	d := h.digits.byN[uint32(n)]
	if err != nil || d == nil {
		refuse(w, &class.Refusal{Status: http.StatusNotFound, Code: class.CodeNotFound, Message: "the class has no drawing " + strconv.Quote(r.PathValue("n"))})
		return
	}
	if !d.removed {
		h.digits.remove(d)
		h.write(removeRecord(d.n))
		h.publish(toPresenter, class.Removed{N: d.n})
	}
	reply(w, class.Ack{Drawing: d.n}.Encode())
}

// set returns the drawings kept as a dataset, in the order of their
// numbers.
func (h *Hub) set() *dataset.Set {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.digits.set()
}

// getNPZ serves the class's drawings for NumPy.
func (h *Hub) getNPZ(w http.ResponseWriter, r *http.Request) {
	var b bytes.Buffer
	if err := modelfile.EncodeDigitsNPZ(&b, h.set()); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	download(w, "class-digits.npz", b.Bytes())
}

// getIDX serves the class's drawings' images or labels as IDX.
func (h *Hub) getIDX(w http.ResponseWriter, r *http.Request) {
	var images, labels bytes.Buffer
	if err := dataset.WriteIDX(&images, &labels, h.set()); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if r.URL.Path == class.PathDigitsLabels {
		download(w, "class-digits-labels-idx1-ubyte", labels.Bytes())
		return
	}
	download(w, "class-digits-images-idx3-ubyte", images.Bytes())
}

func download(w http.ResponseWriter, name string, b []byte) {
	hdr := w.Header()
	hdr.Set("Content-Type", "application/octet-stream")
	hdr.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	hdr.Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
}

// postNPZ adds a saved set of digits (a .npz as getNPZ serves it) to the
// class's, all or none, as the presenter's drawings.
func (h *Hub) postNPZ(w http.ResponseWriter, r *http.Request) {
	if ref := wantType(r, "application/octet-stream"); ref != nil {
		refuse(w, ref)
		return
	}
	body, ref := readBody(w, r, int64(1<<17+h.MaxDrawings*(dataset.Pixels+8)))
	if ref != nil {
		refuse(w, ref)
		return
	}
	h.mu.Lock()
	room := h.MaxDrawings - h.digits.kept
	h.mu.Unlock()
	s, err := modelfile.DecodeDigitsNPZ(body, max(room, 0))
	if err != nil {
		code, status := class.CodeInvalid, http.StatusBadRequest
		if errors.Is(err, modelfile.ErrTooLarge) {
			code, status = class.CodeClassLimit, http.StatusForbidden
		}
		refuse(w, &class.Refusal{Status: status, Code: code, Message: "the digits' file: " + err.Error()})
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if ref := h.room(s.Len()); ref != nil {
		refuse(w, ref)
		return
	}
	var px [dataset.Pixels]byte
	for i := range s.Len() {
		s.Dense(px[:], i)
		h.keep(&drawing{n: h.digits.last + 1, label: s.Labels[i], pixels: px})
	}
	reply(w, class.Ack{Drawing: h.digits.last}.Encode())
}

// SetStudents says the students' address the server printed, which the
// projector's page shows as its QR code (GET /class/address).
func (h *Hub) SetStudents(u string) {
	h.mu.Lock()
	h.students = u
	h.mu.Unlock()
}

// getAddress answers the students' address, 404 before SetStudents.
func (h *Hub) getAddress(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	u := h.students
	h.mu.Unlock()
	if u == "" {
		refuse(w, &class.Refusal{Status: http.StatusNotFound, Code: class.CodeNotFound, Message: "the server has said no students' address"})
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	io.WriteString(w, u)
}
