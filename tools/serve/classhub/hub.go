package classhub

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"log"
	"net/http"
	"strings"
	"sync"
	"time"

	"softmaxdemo/core/class"
)

// Hub is one class: who presents (the key), how many phones are joined,
// where the presenter is, the open question and its answers, the latest
// θ, the class's drawings and lines, and the event stream that tells
// every page what changed. It is an http.Handler for the paths under
// /class/ (see the package comment).
//
// Its limits are its fields: New sets the defaults, and a caller may
// change them before it serves its first request, never after.
type Hub struct {
	MaxStudents         int           // phones joined at once; the next is told the class is full
	MaxDrawingsPerPhone int           // drawings one phone may send in the class
	MaxDrawings         int           // drawings the class keeps (removed ones leave room)
	MaxLines            int           // phones whose lines the class keeps
	MaxBody             int64         // bytes of a phone's request body; more is 413
	Rate                float64       // a phone's requests a second, sustained
	Burst               int           // a phone's requests at once
	DrawRate            float64       // a phone's drawings a second, sustained
	DrawBurst           int           // a phone's drawings at once
	MaxStreams          int           // event streams one phone may hold open; a new one closes the oldest
	Grace               time.Duration // a phone without a stream stays joined this long
	TeacherGrace        time.Duration // the presenter's page may be away this long before phones are told
	Keepalive           time.Duration // a stream without events gets a comment this often
	WriteTimeout        time.Duration // a stream's write that takes longer drops the stream
	LogSize             int           // events kept for replay (Last-Event-ID); a stream that falls further behind is dropped
	Retry               time.Duration // how long a page's EventSource waits before reconnecting ("retry:")
	SyncDelay           time.Duration // how soon after a drawing is written the file is synced to the disk
	retryEvery          time.Duration // how often writes that failed are tried again

	// Now is the clock of the limits (rates and Grace); tests set it.
	Now func() time.Time
	// Log receives what a teacher should know: a file that cannot be
	// written, drawings skipped on load, streams dropped. Nil logs to
	// the standard logger.
	Log *log.Logger

	key   class.Key
	epoch string // this run's, in every event id

	startOnce sync.Once
	mux       *http.ServeMux
	closed    chan struct{}
	closeOnce sync.Once
	wg        sync.WaitGroup // the hub's own goroutines

	mu          sync.Mutex
	students    string // the students' address (SetStudents)
	phones      map[class.PhoneID]*phone
	presenters  int         // presenter streams open
	teacherHere bool        // as last announced
	teacherOff  *time.Timer // announces the teacher gone, TeacherGrace after the last stream closed
	state       class.State
	theta       *thetaBlob
	thetaN      uint64 // versions uploaded
	question    class.Question
	answers     map[class.PhoneID]answer
	counts      []int
	digits      digits
	lines       map[class.PhoneID]*lineEntry
	slots       int // line slots given
	log         eventLog
	subs        map[*sub]struct{}
	store       *store
	fault       string // what the presenter was last told of the file
	drops       int    // streams dropped for being slow, for tests
}

// An answer is a phone's choice (an index into the question's choices)
// and the Seq of the message that made it.
type answer struct {
	choice int
	seq    uint32
}

// A lineEntry is a phone's latest line and its Seq; line is nil once the
// presenter cleared the lines.
type lineEntry struct {
	slot int
	seq  uint32
	line *class.PlaneLine
}

// New returns a class whose presenter holds key, with the default
// limits, in memory until Open gives it a folder.
func New(key class.Key) *Hub {
	var e [4]byte
	rand.Read(e[:])
	return &Hub{
		MaxStudents:         100,
		MaxDrawingsPerPhone: 50,
		MaxDrawings:         5000,
		MaxLines:            400,
		MaxBody:             4 << 10,
		Rate:                5,
		Burst:               20,
		DrawRate:            2,
		DrawBurst:           10,
		MaxStreams:          2,
		Grace:               time.Minute,
		TeacherGrace:        3 * time.Second,
		Keepalive:           15 * time.Second,
		WriteTimeout:        10 * time.Second,
		LogSize:             4096,
		Retry:               time.Second,
		SyncDelay:           time.Second,
		retryEvery:          5 * time.Second,
		Now:                 time.Now,
		key:                 key,
		epoch:               hex.EncodeToString(e[:]),
		closed:              make(chan struct{}),
		phones:              map[class.PhoneID]*phone{},
		answers:             map[class.PhoneID]answer{},
		lines:               map[class.PhoneID]*lineEntry{},
		subs:                map[*sub]struct{}{},
		digits:              newDigits(),
	}
}

// ServeHTTP serves the class's paths (see the package comment).
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.startOnce.Do(h.start)
	hdr := w.Header()
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Cache-Control", "no-store")
	if r.Method != http.MethodGet && r.Method != http.MethodHead && !sameOrigin(r) {
		refuse(w, &class.Refusal{Status: http.StatusForbidden, Code: class.CodeOrigin,
			Message: "a request from another site: the class takes requests from its own pages only"})
		return
	}
	h.mux.ServeHTTP(w, r)
}

// start builds the routes and starts the hub's sweeper, once, before
// the first request.
func (h *Hub) start() {
	h.log.init(h.LogSize)
	m := http.NewServeMux()
	m.HandleFunc("GET "+class.PathEvents, h.serveEvents)
	m.HandleFunc("POST "+class.PathJoin, h.phonePost(h.join))
	m.HandleFunc("POST "+class.PathAnswer, h.phonePost(h.answer))
	m.HandleFunc("POST "+class.PathDrawing, h.phonePost(h.drawing))
	m.HandleFunc("POST "+class.PathLine, h.phonePost(h.line))
	m.HandleFunc("GET "+class.PathTheta, h.getTheta)
	m.HandleFunc("POST "+class.PathTheta, h.presenter(h.postTheta))
	m.HandleFunc("POST "+class.PathState, h.presenter(h.postState))
	m.HandleFunc("POST "+class.PathQuestion, h.presenter(h.postQuestion))
	m.HandleFunc("DELETE "+class.PathLines, h.presenter(h.clearLines))
	m.HandleFunc("GET "+class.PathDrawings, h.presenter(h.getDrawings))
	m.HandleFunc("DELETE "+class.PathDrawings+"/{n}", h.presenter(h.removeDrawing))
	m.HandleFunc("GET "+class.PathDigitsNPZ, h.presenter(h.getNPZ))
	m.HandleFunc("POST "+class.PathDigitsNPZ, h.presenter(h.postNPZ))
	m.HandleFunc("GET "+class.PathDigitsImages, h.presenter(h.getIDX))
	m.HandleFunc("GET "+class.PathDigitsLabels, h.presenter(h.getIDX))
	m.HandleFunc("GET "+class.PathAddress, h.presenter(h.getAddress))
	known := map[string]bool{}
	for _, p := range []string{class.PathEvents, class.PathJoin, class.PathAnswer, class.PathDrawing, class.PathLine,
		class.PathTheta, class.PathState, class.PathQuestion, class.PathLines, class.PathDrawings,
		class.PathDigitsNPZ, class.PathDigitsImages, class.PathDigitsLabels} {
		known[p] = true
	}
	m.HandleFunc("/class/", func(w http.ResponseWriter, r *http.Request) {
		if known[r.URL.Path] || strings.HasPrefix(r.URL.Path, class.PathDrawings+"/") {
			refuse(w, &class.Refusal{Status: http.StatusMethodNotAllowed, Code: class.CodeMethod, Message: r.Method + " is not a method of " + r.URL.Path})
			return
		}
		refuse(w, &class.Refusal{Status: http.StatusNotFound, Code: class.CodeNotFound, Message: "no such path in the class"})
	})
	h.mux = m
	h.wg.Add(1)
	go h.sweep()
}

// EndStreams ends every event stream and the hub's timers; requests
// are still served. It is what http.Server.RegisterOnShutdown runs, so
// that a server's Shutdown does not wait for streams that never end,
// while the requests in flight still write their drawings.
func (h *Hub) EndStreams() {
	h.closeOnce.Do(func() {
		close(h.closed)
		h.wg.Wait()
		h.mu.Lock()
		if h.teacherOff != nil {
			h.teacherOff.Stop()
		}
		h.mu.Unlock()
	})
}

// Close ends every stream (EndStreams), then syncs and closes the file
// of drawings, and returns the error of what could not be written.
func (h *Hub) Close() error {
	h.EndStreams()
	h.mu.Lock()
	st := h.store
	h.mu.Unlock()
	if st != nil {
		return st.close()
	}
	return nil
}

// isPresenter reports whether r carries the presenter's key (the query
// parameter key), comparing it in constant time.
func (h *Hub) isPresenter(r *http.Request) bool {
	k, err := class.ParseKey(r.URL.Query().Get("key"))
	if err != nil {
		return false
	}
	return subtle.ConstantTimeCompare(k[:], h.key[:]) == 1
}

// logf logs a line for the teacher.
func (h *Hub) logf(format string, args ...any) {
	if h.Log != nil {
		h.Log.Printf(format, args...)
		return
	}
	log.Printf(format, args...)
}

// sameOrigin reports whether a request that changes the class comes from
// the class's own pages: no Origin, or one naming this host, and no
// Sec-Fetch-Site saying another site.
func sameOrigin(r *http.Request) bool {
	if s := r.Header.Get("Sec-Fetch-Site"); s == "cross-site" || s == "same-site" {
		return false
	}
	o := r.Header.Get("Origin")
	return o == "" || o == "http://"+r.Host || o == "https://"+r.Host
}

// refuse writes a refusal.
func refuse(w http.ResponseWriter, ref *class.Refusal) {
	hdr := w.Header()
	hdr.Set("Content-Type", "application/json")
	if ref.RetryAfter > 0 {
		hdr.Set("Retry-After", itoa(ref.RetryAfter))
	}
	w.WriteHeader(ref.Status)
	w.Write(ref.Encode())
}

// reply writes a 200 with a JSON body.
func reply(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}
