package ui

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit/kittest"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/params"
)

// TestLessonChaptersShowOnePlanePicture: the page, in each chapter and on
// the whole instrument, in both languages, has every element id once;
// the model, hand, descent and redundancy chapters show the plane's picture of
// their point, the other chapters none, and the whole instrument the
// whole panel.
func TestLessonChaptersShowOnePlanePicture(t *testing.T) {
	pictures := map[string][]string{
		"":           {"plane", "plane-surface", "plane-paths", "plane-psi", "plane-data", "plane-lr"}, // the whole instrument
		"model":      {"plane", "plane-status", "plane-train", "plane-k"},
		"hand":       {"plane", "plane-status", "plane-train", "plane-theta"},
		"descent":    {"plane-surface", "plane-paths", "plane-lr", "plane-alpha-max"},
		"redundancy": {"plane", "plane-psi", "plane-psi-result", "plane-status", "psi-add"},
	}
	planeIDs := []string{"plane", "plane-surface", "plane-paths", "plane-psi", "plane-status"}
	for _, l := range i18n.Langs {
		for n := 0; n <= len(lesson.Chapters); n++ {
			id := ""
			if n > 0 {
				id = lesson.Chapters[n-1].ID
			}
			t.Run(string(l)+"/"+strconv.Itoa(n)+id, func(t *testing.T) {
				p := newPage()
				p.chapter, p.lang = n, l
				got := kittest.IDs(kittest.Render(t, p))
				for k, c := range got {
					if c > 1 {
						t.Errorf("#%s is there %d times", k, c)
					}
				}
				want, shows := pictures[id]
				for _, k := range want {
					if got[k] != 1 {
						t.Errorf("#%s is missing", k)
					}
				}
				if !shows {
					for _, k := range planeIDs {
						if got[k] != 0 {
							t.Errorf("shows #%s", k)
						}
					}
				}
			})
		}
	}
}

// TestAChapterAddedIsARowAndItsText: a chapter added to the table, with
// its text in the two catalogs and nothing else, is a chapter like the
// others: the bar offers it, a link names it, entering it applies its
// settings, and it shows its text, formulas, question and panels, the
// instrument's and the plane's among them.
func TestAChapterAddedIsARowAndItsText(t *testing.T) {
	ninth := lesson.Chapter{
		ID:       "ninth",
		Panels:   []lesson.Panel{lesson.Example, lesson.Templates, lesson.PlaneSurface},
		Settings: func(f *params.Fields) { f.LR = "0.25" },
		Formulas: func(lesson.Live, func(string) string) []string { return []string{`J(\theta) = 9`} },
		Question: &lesson.Question{Choices: 2, Right: func(lesson.Live) int { return 1 }},
	}
	text := map[i18n.Lang]map[string]string{
		i18n.ZH: {"title": "第九章", "text": "第九章的正文。", "try": "试一试。", "q": "会怎样？", "q.a": "答案。", "q.c1": "甲", "q.c2": "乙"},
		i18n.EN: {"title": "The ninth", "text": "The text of the ninth chapter.", "try": "Try it.", "q": "What happens?", "q.a": "The answer.", "q.c1": "This", "q.c2": "That"},
	}
	saved := lesson.Chapters
	lesson.Chapters = append(slices.Clone(saved), ninth)
	n := len(lesson.Chapters)
	ns := strconv.Itoa(n)
	for l, kv := range text {
		for k, v := range kv {
			i18n.Catalogs[l]["lesson.ninth."+k] = v
		}
	}
	t.Cleanup(func() {
		lesson.Chapters = saved
		for l, kv := range text {
			for k := range kv {
				delete(i18n.Catalogs[l], "lesson.ninth."+k)
			}
		}
	})

	if got, ok := lesson.Parse("ninth"); !ok || got != n {
		t.Fatalf("a link to the chapter added opens %d, want %d", got, n)
	}
	if f := lesson.Apply(n, params.Defaults()); f.LR != "0.25" {
		t.Errorf("entering the ninth chapter sets α to %q", f.LR)
	}
	for _, l := range i18n.Langs {
		p := newPage()
		p.chapter, p.lang = n, l
		html := kittest.Render(t, p)
		for _, want := range []string{`data-chapter="` + ns + `"`, `data-chapters="` + ns + `"`, `data-chapter-id="ninth"`, `data-goto="` + ns + `"`,
			text[l]["title"], text[l]["text"], `data-predict="ninth"`, text[l]["q.c2"], `id="lesson-example"`, `id="weights"`, `id="plane-surface"`, "<math"} {
			if !strings.Contains(html, want) {
				t.Errorf("%s: the ninth chapter lacks %q", l, want)
			}
		}
		if strings.Contains(html, "lesson.ninth.") {
			t.Errorf("%s: the ninth chapter shows a catalog key", l)
		}
		if p.chapterTitle() != text[l]["title"]+" · "+ns+"/"+ns+" · "+l.T("app.name") {
			t.Errorf("%s: the title is %q", l, p.chapterTitle())
		}
	}
}
