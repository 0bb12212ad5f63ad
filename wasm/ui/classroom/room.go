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
	"slices"
	"strconv"
	"time"

	"softmaxdemo/core/class"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/i18n"

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

// connect opens the event stream: a new one, or one that goes on from
// the last event the page had (the query parameter last, since a new
// EventSource cannot send Last-Event-ID).
func (o *owner) connect() {
	if o.dead || o.stopStream != nil {
		return
	}
	q := url.Values{"id": {o.phone}}
	if o.last != "" {
		q.Set("last", o.last)
	}
	o.stopStream = o.net.open(o.path("/class/events", q), events,
		func(name, id, data string) {
			o.ctx.Dispatch(func(ctx app.Context) { o.event(ctx, name, id, data) })
		},
		func(s int) {
			o.ctx.Dispatch(func(ctx app.Context) { o.streamState(ctx, s) })
		})
}

// streamState takes a change of the stream's state.
func (o *owner) streamState(ctx app.Context, s int) {
	switch s {
	case browser.StreamOpen:
		o.reopen = 0
		if o.gotHello {
			o.st.Connected = true // the events missed come next, without a Hello
			o.pump(ctx)
		}
	case browser.StreamReconnecting:
		o.st.Connected = false
	case browser.StreamClosed:
		o.disconnect()
		o.ask(ctx)
	}
}

// ask asks the server why the stream was refused (POST /class/join: a
// full class, or a server that is no class's), and opens it again when
// let in.
func (o *owner) ask(ctx app.Context) {
	o.reopen = min(max(2*o.reopen, time.Second), 10*time.Second)
	id, err := class.ParsePhoneID(o.phone)
	if err != nil {
		o.dead = true // no random bytes in this browser: no class
		return
	}
	o.net.request("POST", o.path("/class/join", nil), "application/json", class.Join{Version: class.Version, Phone: id}.Encode(),
		func(r browser.Response) {
			o.ctx.Dispatch(func(ctx app.Context) {
				switch {
				case r.Err != "" || r.Status >= 500 && r.Status != 503:
					o.st.Gone = o.gotHello
					o.after(o.reopen, func(ctx app.Context) { o.ask(ctx) })
				case r.Status == 404 && !o.gotHello:
					o.dead = true // served by anything but tools/serve -class
				case r.Status >= 200 && r.Status < 300:
					o.st.Refused = nil
					o.connect()
				default:
					ref := class.DecodeRefusal(r.Status, r.RetryAfter, r.Body)
					o.st.Refused = ref
					wait := o.reopen
					if ref.Retry() {
						wait = time.Duration(max(ref.RetryAfter, 1)) * time.Second
					}
					o.after(wait, func(ctx app.Context) { o.ask(ctx) })
				}
			})
		})
}

// event takes one event of the stream.
func (o *owner) event(ctx app.Context, name, id, data string) {
	e, err := class.DecodeEvent(name, []byte(data))
	if err != nil {
		ctx.PreventUpdate() // a newer server's event, or a broken one: the class goes on without it
		return
	}
	if id != "" {
		o.last = id
	}
	if h, ok := e.(class.Hello); ok {
		o.hello(ctx, h)
		return
	}
	o.st.Apply(e)
	switch e := e.(type) {
	case class.State:
		if o.st.Following() {
			Follow.Post(ctx, e)
		}
	case class.ThetaVersion:
		o.fetchTheta(ctx)
		ctx.PreventUpdate()
	case class.Poll:
		o.look(ctx)
	case class.LineOf, class.Cleared:
		Lines.Post(ctx, slices.Clone(o.st.Lines))
	}
}

// hello replaces what the page knows of the class: a new stream, a
// server restarted, a long absence. The projector's page tells the
// server again what it has forgotten; a phone sends again its answer to
// the open question if the server does not have it.
func (o *owner) hello(ctx app.Context, h class.Hello) {
	q := h.Poll.Question
	mine := o.st.Mine[q.ID]
	o.gotHello = true
	o.st.Hello(h)
	Joined.Post(ctx, h.Role)
	if h.Role == class.RolePresenter {
		Lines.Post(ctx, slices.Clone(o.st.Lines))
	}
	switch h.Role {
	case class.RolePresenter:
		o.sentState, o.sentQuestion = h.State, h.Poll.Question
		if o.sentModel == nil || class.Checksum(o.sentModel) != h.Theta.Checksum {
			o.sentModel, o.sentAt = nil, time.Time{} // sent again at once
		}
		o.look(ctx)
		o.fetchDigits(ctx)
		o.fetchAddress(ctx)
	case class.RoleStudent:
		if q.ID != "" && !q.Revealed && h.Mine == "" && mine != "" {
			o.st.choose(q.ID, mine)
			o.sendAnswer(ctx, q.ID, mine)
		}
		if o.st.Following() && h.State.Lang != "" {
			Follow.Post(ctx, h.State)
		}
		o.have = 0
		o.fetchTheta(ctx)
	}
	o.pump(ctx)
}

// look tells the class what the projector's page shows, if it changed
// since the server last took it, and reports whether #class must render.
func (o *owner) look(ctx app.Context) bool {
	if o.st.Role != class.RolePresenter || !o.st.Connected || o.shown == nil {
		return false
	}
	sh := o.shown()
	if sh.State != o.sentState && !o.sending[0] && sh.State.Validate() == nil {
		o.post(0, "/class/state", "application/json", sh.State.Encode(), func() { o.sentState = sh.State })
	}
	q := sh.Question
	if (!q.Same(o.sentQuestion) || q.Revealed != o.sentQuestion.Revealed) && !o.sending[1] && q.Validate() == nil {
		o.post(1, "/class/question", "application/json", q.Encode(), func() { o.sentQuestion = q })
	}
	m := sh.Model
	if m != nil && m != o.sentModel && !o.sending[2] && time.Since(o.sentAt) >= thetaEvery {
		if b, err := class.EncodeTheta(m); err == nil {
			o.sentAt = time.Now()
			o.post(2, "/class/theta", "application/octet-stream", b, func() { o.sentModel = m })
		}
	}
	return false
}

// post sends one of the projector's requests (slot: which kind, one of
// each on its way at a time) and calls ok once the server took it; a
// request that failed is sent again at the next look.
func (o *owner) post(slot int, p, ctype string, body []byte, ok func()) {
	o.sending[slot] = true
	o.net.request("POST", o.path(p, nil), ctype, body, func(r browser.Response) {
		o.ctx.Dispatch(func(ctx app.Context) {
			o.sending[slot] = false
			if r.Err == "" && r.Status >= 200 && r.Status < 300 {
				ok()
			}
			ctx.PreventUpdate()
		})
	})
}

// fetchTheta fetches the projector's latest θ, if a phone that follows
// does not show it yet, one fetch at a time.
func (o *owner) fetchTheta(ctx app.Context) {
	if !o.st.Following() || o.fetching || o.st.Theta.Version == 0 || o.st.Theta.Version == o.have {
		return
	}
	o.fetching = true
	o.net.request("GET", o.path("/class/theta", nil), "", nil, func(r browser.Response) {
		o.ctx.Dispatch(func(ctx app.Context) {
			o.fetching = false
			if r.Err != "" || r.Status != 200 {
				o.after(time.Second, o.fetchTheta)
				ctx.PreventUpdate()
				return
			}
			m, err := class.DecodeTheta(r.Body)
			v, verr := strconv.ParseUint(r.Version, 10, 64)
			if err != nil || verr != nil || (r.Checksum != "" && class.Checksum(m) != r.Checksum) {
				ctx.PreventUpdate() // refused: the next version is fetched when announced
				o.have = o.st.Theta.Version
				return
			}
			o.have = v
			if o.st.Following() {
				Theta.Post(ctx, m)
			}
			o.fetchTheta(ctx) // a newer version announced meanwhile
		})
	})
}

// answer takes a phone's choice in the class's question.
func (o *owner) answer(ctx app.Context, c Choice) {
	if o.st.Role != class.RoleStudent || !o.st.Choose(c.Question, c.Choice) {
		return
	}
	o.sendAnswer(ctx, c.Question, strconv.Itoa(c.Choice))
}

// sendAnswer queues a phone's answer, with the next Seq.
func (o *owner) sendAnswer(ctx app.Context, question, choice string) {
	id, err := class.ParsePhoneID(o.phone)
	if err != nil {
		return
	}
	a := class.Answer{Phone: id, Seq: o.nextSeq(), Question: question, Choice: choice}
	o.out.add(message{Path: "/class/answer", Body: a.Encode(), Question: question})
	o.pump(ctx)
}

// nextSeq returns the phone's next Seq, kept in the browser's storage so
// that a reload never uses one again.
func (o *owner) nextSeq() uint32 {
	n, _ := strconv.ParseUint(o.store.Get(seqStorage), 10, 32)
	n++
	if n > class.MaxSeq {
		n = 1
	}
	o.store.Set(seqStorage, strconv.FormatUint(n, 10))
	return uint32(n)
}

// pump sends the outbox's next message, if it may.
func (o *owner) pump(ctx app.Context) {
	m, ok := o.out.next()
	if !ok {
		return
	}
	o.net.request("POST", o.path(m.Path, nil), "application/json", m.Body, func(r browser.Response) {
		o.ctx.Dispatch(func(ctx app.Context) {
			again, refused := o.out.done(r)
			if refused != nil {
				o.st.Refused = refused
			}
			if m.Path == linePath && again == 0 && refused == nil {
				LineTaken.Post(ctx)
			}
			if m.Path == drawingPath && again == 0 {
				if refused == nil {
					o.st.Sent++
					o.st.Drawing = "sent"
				} else {
					o.st.Drawing = ""
				}
			}
			if again > 0 {
				o.after(again, o.pump)
				ctx.PreventUpdate()
				return
			}
			o.pump(ctx)
		})
	})
}

// leave stops a phone following the projector.
func (o *owner) leave(ctx app.Context) {
	if o.st.Role == class.RoleStudent {
		o.st.Alone = true
	}
}

// rejoin makes a phone follow the projector again: its chapter, its
// language, its θ.
func (o *owner) rejoin(ctx app.Context) {
	o.st.Alone = false
	if o.st.Presenter.Lang != "" {
		Follow.Post(ctx, o.st.Presenter)
	}
	o.have = 0
	o.fetchTheta(ctx)
}

// checksum returns data-theta for m, computed once per model.
func (o *owner) checksum(m *softmax.Model[float32]) string {
	if m != o.sumOf || (m == nil) != (o.sum == "") {
		o.sumOf, o.sum = m, class.Checksum(m)
	}
	return o.sum
}

// drawingPath is where a phone sends a drawing.
const drawingPath = "/class/drawing"

// sendDrawing queues a phone's drawing, with the next Seq.
func (o *owner) sendDrawing(ctx app.Context, d drawn) {
	id, err := class.ParsePhoneID(o.phone)
	if err != nil || o.st.Role != class.RoleStudent {
		return
	}
	dr := &class.Drawing{Phone: id, Seq: o.nextSeq(), Label: d.Label, Pixels: d.Pixels}
	o.st.Refused, o.st.Drawing = nil, "sending"
	o.out.add(message{Path: drawingPath, Body: dr.Encode()})
	o.pump(ctx)
}

// fetchDigits fetches the class's drawings, all of them, after a Hello:
// the events since bring the rest.
func (o *owner) fetchDigits(ctx app.Context) {
	o.net.request("GET", o.path("/class/drawings", url.Values{"after": {"0"}}), "", nil, func(r browser.Response) {
		o.ctx.Dispatch(func(ctx app.Context) {
			if r.Err != "" || r.Status != 200 {
				o.after(time.Second, o.fetchDigits)
				ctx.PreventUpdate()
				return
			}
			ds, err := class.DecodeDigitList(r.Body)
			if err != nil {
				o.st.Fault = err.Error()
				return
			}
			o.st.Digits = o.st.Digits[:0]
			o.st.addDigits(ds...)
		})
	})
}

// removeDrawing asks the server to remove drawing n; its event removes
// it from the list.
func (o *owner) removeDrawing(ctx app.Context, n uint32) {
	o.net.request("DELETE", o.path("/class/drawings/"+strconv.FormatUint(uint64(n), 10), nil), "", nil, func(r browser.Response) {
		o.ctx.Dispatch(func(ctx app.Context) {
			if r.Err == "" && r.Status >= 200 && r.Status < 300 {
				o.st.removeDigit(n) // at once, whether or not the event came first
			}
		})
	})
	ctx.PreventUpdate()
}

// trainOn makes the class's digits my digits, to train on, and notes
// what they were read as before.
func (o *owner) trainOn(ctx app.Context) {
	if len(o.st.Digits) == 0 {
		return
	}
	b := &before{test: -1, class: -1}
	if rd := o.reading; len(rd.predicted) > 0 && rd.model != nil {
		b.class = float64(rd.right) / float64(len(rd.predicted))
	}
	o.before = b
	TrainOn.Post(ctx, o.st.samples(maxTrainOn))
}

// maxTrainOn is at most how many of the class's digits become my digits
// (modelfile.MaxDigits).
const maxTrainOn = 1000

// onUpload reads a saved set of the class's digits (.npz) chosen in
// #class-upload.
func (o *owner) onUpload(ctx app.Context, e app.Event) {
	files := ctx.JSSrc().Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	f := browser.FileOf(files.Index(0))
	f.Read(func(b []byte, err error) {
		o.ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				o.st.Fault = err.Error()
				return
			}
			uploadDigits.Post(ctx, b)
		})
	})
}

// upload adds a saved set to the class (all or none); the server says
// each drawing added.
func (o *owner) upload(ctx app.Context, b []byte) {
	o.net.request("POST", o.path("/class/digits.npz", nil), "application/octet-stream", b, func(r browser.Response) {
		o.ctx.Dispatch(func(ctx app.Context) {
			if r.Err != "" {
				o.st.Refused = &class.Refusal{Message: r.Err}
				return
			}
			if r.Status < 200 || r.Status >= 300 {
				o.st.Refused = class.DecodeRefusal(r.Status, r.RetryAfter, r.Body)
				return
			}
			o.fetchDigits(ctx)
		})
	})
}

// Pad is a phone's pad (#class-pad), which sends drawings to the class,
// read by m, the model the phone shows. Nil unless the page is a phone
// of a class.
func (r *Room) Pad(l i18n.Lang, m *softmax.Model[float32]) app.UI {
	if r == nil || r.o.st.Role != class.RoleStudent {
		return nil
	}
	st := r.o.st
	reason := ""
	if st.Refused != nil && st.Drawing == "" {
		reason = st.Refused.Message
	}
	return &pad{ILang: l, IModel: m, ISent: st.Sent, IMax: st.MaxSent, IState: st.Drawing, IReason: reason}
}

// fetchAddress fetches the students' address, for the projector's QR
// code; without it the code carries the page's own link.
func (o *owner) fetchAddress(ctx app.Context) {
	if o.st.Address != "" {
		return
	}
	o.net.request("GET", o.path(class.PathAddress, nil), "", nil, func(r browser.Response) {
		o.ctx.Dispatch(func(ctx app.Context) {
			if r.Err == "" && r.Status == 200 && len(r.Body) < 512 {
				if u, err := url.Parse(string(r.Body)); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
					o.st.Address = u.String()
				}
			}
		})
	})
}

// linePath is where a phone sends its line in the plane.
const linePath = "/class/line"

// sendLine queues a phone's line in the plane, with the next Seq: a
// newer one replaces one not yet on its way.
func (o *owner) sendLine(ctx app.Context, pl class.PlaneLine) {
	id, err := class.ParsePhoneID(o.phone)
	if err != nil || o.st.Role != class.RoleStudent || pl.Validate() != nil {
		return
	}
	l := class.Line{Phone: id, Seq: o.nextSeq(), Line: pl}
	o.out.add(message{Path: linePath, Body: l.Encode(), Question: "line"})
	o.pump(ctx)
}

// clearLines asks the server to forget the class's lines; its event
// clears them.
func (o *owner) clearLines(ctx app.Context) {
	if o.st.Role != class.RolePresenter {
		return
	}
	o.net.request("DELETE", o.path(class.PathLines, nil), "", nil, func(browser.Response) {})
	ctx.PreventUpdate()
}
