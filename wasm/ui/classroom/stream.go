package classroom

import (
	"net/url"
	"slices"
	"softmaxdemo/core/class"
	"softmaxdemo/wasm/ui/browser"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

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
