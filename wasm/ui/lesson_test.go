package ui

import (
	"strconv"
	"testing"

	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/lesson"
)

// TestLessonChaptersShowOnePlanePicture: the page, in each chapter and on
// the full page, in both languages, has every element id once; the
// model, descent and redundancy chapters show the plane's picture of
// their point, the other chapters none, and the full page the whole
// panel.
func TestLessonChaptersShowOnePlanePicture(t *testing.T) {
	pictures := map[string][]string{
		"":           {"plane", "plane-surface", "plane-paths", "plane-psi", "plane-data", "plane-lr"}, // the full page
		"model":      {"plane", "plane-status", "plane-train", "plane-k"},
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
				p.link.Lesson, p.st.Lang = n, l
				got := ids(render(t, p))
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
