package classroom

import (
	"softmaxdemo/core/class"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/i18n"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

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
