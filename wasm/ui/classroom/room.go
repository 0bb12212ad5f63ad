// Package classroom is the class room: the page as one of a class served
// by tools/serve -class (core/class is its protocol). The projector's page
// presents: it tells the class where it is (the lesson's chapter, the
// language, the scrub position), its question and the θ it shows, and
// shows how many phones joined and how many chose each answer. A phone's
// page follows: it shows the projector's chapter, language and θ, bit for
// bit and without training, and sends its answers, until its person
// leaves to look around alone and comes back with #class-rejoin.
//
// The room has one owner, the only code that changes its state (State,
// through its methods): it holds the event stream and the phone's outbox,
// handles the room's actions and the page's, and posts what the page must
// do (Follow, Theta). It imports none of the page's other rooms: the page
// gives it what the projector shows as a function (Open), and carries out
// its actions on the others. A page opened without ?class in its address,
// or served by anything but tools/serve -class, has no class room and
// shows nothing of classes.
package classroom

import (
	"net/url"
	"time"

	"softmaxdemo/core/class"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/browser"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Storage keys: the presenter's key in the tab's storage, the phone's id
// and its last Seq in the browser's.
const (
	keyStorage   = "softmax:class-key"
	phoneStorage = "softmax:class-phone"
	seqStorage   = "softmax:class-seq"
)

// Timing of the projector's page: how often it looks at what it shows,
// and at most how often it sends a new θ while a run trains.
const (
	lookEvery  = 250 * time.Millisecond
	thetaEvery = 300 * time.Millisecond
)

// net is the browser as the room reaches the server: browser's class
// calls in the page, a fake in tests.
type net interface {
	open(url string, names []string, onEvent func(name, id, data string), onState func(int)) (close func())
	request(method, url, ctype string, body []byte, done func(browser.Response))
}

type browserNet struct{}

func (browserNet) open(u string, names []string, onEvent func(name, id, data string), onState func(int)) func() {
	return browser.OpenEvents(u, names, onEvent, onState)
}

func (browserNet) request(method, u, ctype string, body []byte, done func(browser.Response)) {
	browser.Request(method, u, ctype, body, done)
}

// storage is where the room keeps the phone's id, its Seq and the key.
type storage interface {
	Get(key string) string
	Set(key, value string) bool
	TabGet(key string) string
	TabSet(key, value string) bool
}

type browserStorage struct{ browser.Host }

func (browserStorage) TabGet(key string) string      { return browser.TabGet(key) }
func (browserStorage) TabSet(key, value string) bool { return browser.TabSet(key, value) }

// Room is the class room as the page holds it.
type Room struct{ o *owner }

// events are the stream's events the room listens to.
var events = []string{class.EventHello, class.EventState, class.EventTeacher, class.EventTheta,
	class.EventQuestion, class.EventCounts, class.EventJoined, class.EventDrawing, class.EventRemoved, class.EventFault,
	class.EventLine, class.EventCleared}

// Open returns the room of the class the page's address asks for (query:
// its query, without "?"), or nil if it asks for none. shown says what
// the page shows, for when it presents. A key in the address moves to
// the tab's storage, and out of the address bar.
func Open(query string, shown func() Shown) *Room {
	return open(query, shown, browserNet{}, browserStorage{})
}

func open(query string, shown func() Shown, n net, s storage) *Room {
	q, err := url.ParseQuery(query)
	if err != nil || !q.Has("class") {
		return nil
	}
	o := &owner{net: n, store: s, shown: shown, st: &State{Cell: [2]int{-1, -1}}}
	if k := q.Get("key"); k != "" {
		s.TabSet(keyStorage, k)
		q.Del("key")
		browser.ReplaceQuery(encodeQuery(q))
	}
	o.key = s.TabGet(keyStorage)
	o.phone = s.Get(phoneStorage)
	if _, err := class.ParsePhoneID(o.phone); err != nil {
		o.phone = browser.RandomID()
		s.Set(phoneStorage, o.phone)
	}
	return &Room{o: o}
}

// encodeQuery is q as an address's query, "class" bare.
func encodeQuery(q url.Values) string {
	rest := url.Values{}
	for k, v := range q {
		if k != "class" {
			rest[k] = v
		}
	}
	out := "class"
	if len(rest) > 0 {
		out += "&" + rest.Encode()
	}
	return out
}

// Mount starts the room in the page whose context is ctx: its handlers,
// and its stream.
func (r *Room) Mount(ctx app.Context) {
	o := r.o
	o.ctx = ctx
	Answer.Handle(ctx, o.answer)
	Leave.Handle(ctx, o.leave)
	Present.Handle(ctx, func(ctx app.Context) { o.look(ctx) })
	rejoin.Handle(ctx, o.rejoin)
	sendDrawing.Handle(ctx, o.sendDrawing)
	removeDrawing.Handle(ctx, o.removeDrawing)
	openCell.Handle(ctx, func(_ app.Context, c [2]int) { o.st.Cell = c })
	trainOnThem.Handle(ctx, o.trainOn)
	uploadDigits.Handle(ctx, o.upload)
	SendLine.Handle(ctx, o.sendLine)
	ClearLines.Handle(ctx, o.clearLines)
	o.connect()
	// A page left for another, which the browser may keep to come back
	// to, closes its stream: the projector's page then counts as gone.
	// Shown again, it connects again.
	o.stopHide = browser.OnPageHide(o.disconnect)
	o.stopShow = browser.OnPageShow(func() { ctx.Dispatch(func(app.Context) { o.connect() }) })
	o.stopLook = o.every(lookEvery, func(ctx app.Context) {
		if !o.look(ctx) {
			ctx.PreventUpdate()
		}
	})
}

// Dismount stops what Mount started.
func (r *Room) Dismount() {
	o := r.o
	o.disconnect()
	o.dead = true
	for _, stop := range []func(){o.stopLook, o.stopHide, o.stopShow} {
		if stop != nil {
			stop()
		}
	}
}

// disconnect closes the event stream.
func (o *owner) disconnect() {
	if o.stopStream != nil {
		o.stopStream()
		o.stopStream = nil
	}
	o.st.Connected = false
}

// State returns the class as the room knows it, to read, not to change.
func (r *Room) State() *State { return r.o.st }

// owner is the room's owner (package comment).
type owner struct {
	ctx   app.Context
	net   net
	store storage
	shown func() Shown
	st    *State

	key   string // the presenter's key, "" for none
	phone string // the page's phone id, in hex
	dead  bool   // dismounted, or the server is no class's

	stopStream func()
	stopLook   func()
	stopHide   func()
	stopShow   func()
	last       string        // the last event's id
	reopen     time.Duration // the wait before the stream is opened again

	out outbox

	// The projector's: what the server has of what the page shows.
	sentState    class.State
	sentQuestion class.Question
	sentModel    *softmax.Model[float32]
	sending      [3]bool // a state, a question, a θ on its way
	sentAt       time.Time

	// A phone's: the θ version shown, and a fetch on its way.
	have     uint64
	fetching bool

	sum      string // data-theta: the checksum of sumOf
	sumOf    *softmax.Model[float32]
	gotHello bool

	reading   reading // the class's digits as the projector's model reads them
	rereading bool    // a render is due once the reading may be late
	before    *before // what they were read as when the teacher trained on them
}

// after calls f on go-app's goroutine after d, unless the room is gone.
func (o *owner) after(d time.Duration, f func(ctx app.Context)) {
	time.AfterFunc(d, func() {
		o.ctx.Dispatch(func(ctx app.Context) {
			if !o.dead {
				f(ctx)
			}
		})
	})
}

// every calls f on go-app's goroutine every d, until the returned stop.
func (o *owner) every(d time.Duration, f func(ctx app.Context)) (stop func()) {
	t := time.NewTicker(d)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-t.C:
				o.ctx.Dispatch(func(ctx app.Context) {
					if !o.dead {
						f(ctx)
					}
				})
			case <-done:
				return
			}
		}
	}()
	return func() { t.Stop(); close(done) }
}

// path is a class path with the query the page sends: the key, if it
// presents.
func (o *owner) path(p string, q url.Values) string {
	if q == nil {
		q = url.Values{}
	}
	if o.key != "" {
		q.Set("key", o.key)
	}
	if len(q) == 0 {
		return p
	}
	return p + "?" + q.Encode()
}
