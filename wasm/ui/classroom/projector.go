package classroom

import (
	"net/url"
	"softmaxdemo/core/class"
	"softmaxdemo/wasm/ui/browser"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

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

// clearLines asks the server to forget the class's lines; its event
// clears them.
func (o *owner) clearLines(ctx app.Context) {
	if o.st.Role != class.RolePresenter {
		return
	}
	o.net.request("DELETE", o.path(class.PathLines, nil), "", nil, func(browser.Response) {})
	ctx.PreventUpdate()
}
