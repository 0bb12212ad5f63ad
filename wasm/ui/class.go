package ui

import (
	"slices"
	"strconv"

	"softmaxdemo/core/class"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/classroom"
	"softmaxdemo/wasm/ui/digits"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/lessonview"
	"softmaxdemo/wasm/ui/planepanel"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// What crosses between the class room and the others: where the
// projector is and its θ, carried out on a phone's page; a phone's
// answers; and what the projector's page shows, for the class.

// openClass opens the class room if the page's address asks for one.
func (p *page) openClass() {
	p.class = classroom.Open(browser.ClassQuery(), p.shownToClass)
}

// handleClass registers the handlers of what crosses between the class
// room and the others.
func (p *page) handleClass(ctx app.Context) {
	if p.class == nil {
		return
	}
	classroom.Follow.Handle(ctx, p.followClass)
	classroom.Theta.Handle(ctx, digits.Follow.Post)
	classroom.TrainOn.Handle(ctx, digits.SetMyDigits.Post)
	// The plane's part: its rooms come and go with the chapters, and ask.
	classroom.Joined.Handle(ctx, func(ctx app.Context, _ string) { p.tellPlane(ctx) })
	planepanel.AskClass.Handle(ctx, p.tellPlane)
	classroom.Lines.Handle(ctx, planepanel.ClassLines.Post)
	classroom.LineTaken.Handle(ctx, planepanel.LineDelivered.Post)
	planepanel.SendLine.Handle(ctx, classroom.SendLine.Post)
	lessonview.ClassChoice.Handle(ctx, func(ctx app.Context, a lessonview.Answer) {
		classroom.Answer.Post(ctx, classroom.Choice{Question: a.Chapter, Choice: a.Choice})
	})
	lessonview.Answered.Handle(ctx, func(ctx app.Context, a lessonview.Answer) {
		if p.revealed == nil {
			p.revealed = map[string]bool{}
		}
		p.revealed[a.Chapter] = true
		classroom.Present.Post(ctx)
	})
	p.class.Mount(ctx)
}

// tellPlane tells the plane its part in the class, and on the projector
// the class's lines.
func (p *page) tellPlane(ctx app.Context) {
	st := p.class.State()
	switch st.Role {
	case class.RolePresenter:
		planepanel.ClassPart.Post(ctx, planepanel.Presenter)
		planepanel.ClassLines.Post(ctx, slices.Clone(st.Lines))
	case class.RoleStudent:
		planepanel.ClassPart.Post(ctx, planepanel.Student)
	}
}

// followClass shows where the projector is, on a phone that follows it.
func (p *page) followClass(ctx app.Context, s class.State) {
	if l, ok := i18n.Parse(s.Lang); ok {
		p.setLang(ctx, l)
	}
	p.goChapter(ctx, s.Chapter)
}

// leaveClass says the person on a phone went their own way (a chapter or
// the instrument chosen on the phone): it stops following the projector.
func (p *page) leaveClass(ctx app.Context) {
	if p.class != nil {
		classroom.Leave.Post(ctx)
	}
}

// shownToClass is what the projector's page shows, which the class
// follows: the chapter, the language, the step shown, the chapter's
// question and the θ shown.
func (p *page) shownToClass() classroom.Shown {
	v := p.digits.View().Views()
	sh := classroom.Shown{State: class.State{Chapter: p.chapter, Lang: string(p.lang), Scrub: -1}, Model: v.Model}
	if v.Frame {
		sh.State.Scrub = v.Step
	}
	if p.chapter > 0 && p.chapter <= len(lesson.Chapters) {
		c := lesson.Chapters[p.chapter-1]
		if q := c.Question; q != nil {
			choices := make([]string, q.Choices)
			for i := range choices {
				choices[i] = strconv.Itoa(i)
			}
			sh.Question = class.Question{ID: c.ID, Choices: choices, Revealed: p.revealed[c.ID]}
		}
	}
	return sh
}

// lessonClass is what the lesson shows of the class.
func (p *page) lessonClass() lessonview.Class {
	if p.class == nil {
		return lessonview.Class{}
	}
	st := p.class.State()
	c := lessonview.Class{Question: st.Poll.Question.ID, Revealed: st.Poll.Question.Revealed, Counts: st.Counts(), Mine: st.MineIn(st.Poll.Question.ID)}
	switch st.Role {
	case class.RolePresenter:
		c.Role, c.Address = lessonview.Presenter, st.Address
	case class.RoleStudent:
		if !st.Following() {
			return lessonview.Class{} // alone: the phone's own lesson
		}
		c.Role = lessonview.Student
	}
	return c
}

// classPanels are the class's panels under the lesson or the instrument:
// a phone's pad, the projector's digits of the class.
func (p *page) classPanels(d digits.View) []app.UI {
	if p.class == nil {
		return nil
	}
	v := d.Views()
	s := d.State()
	return []app.UI{p.class.Pad(p.lang, v.Model), p.class.Digits(p.lang, v.Model, v.Deskew, s.TestAccuracy())}
}
