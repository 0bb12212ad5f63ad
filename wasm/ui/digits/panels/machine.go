package panels

import (
	"strconv"

	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Machine is what the instrument says of the machine it trains on, for
// the page's footer: the kernels (#kernel), the workers that compute full
// passes (#workers) and the memory held (#memory), each line with its
// raw numbers as attributes.
func Machine(l i18n.Lang, s store.Machine) []app.UI {
	return []app.UI{
		app.P().ID("kernel").Attr("data-kernel", s.Kernel).Attr("data-refused", s.KernelRefused).Text(kernelText(l, s.Kernel, s.KernelRefused)),
		app.P().ID("workers").Attr("data-value", s.Workers).Attr("data-asked", s.WorkersAsked).Attr("data-replaced", s.WorkersReplaced).
			Text(workersText(l, s.Workers, s.WorkersAsked, s.WorkersRefused)),
		app.P().ID("memory").Attr("data-page-heap", s.PageHeap).Attr("data-worker-heap", s.WorkerHeap).Attr("data-helpers-heap", s.HelpersHeap).
			Text(memoryText(l, s.PageHeap, s.WorkerHeap, s.HelpersHeap)),
	}
}

// workersText says how many workers compute the full passes and, when
// the browser refused some, why; nothing before the worker says.
func workersText(l i18n.Lang, running, asked int, refused string) string {
	switch {
	case running == 0:
		return ""
	case running < asked:
		return l.T("workers.refused", strconv.Itoa(running), strconv.Itoa(asked), refused)
	}
	if running == 1 {
		return l.T("workers.one")
	}
	return l.T("workers.n", strconv.Itoa(running))
}

// kernelText says which kernels the worker trains with and, when it
// refused its SIMD kernel, why.
func kernelText(l i18n.Lang, k, refused string) string {
	switch {
	case k == "wasm-simd":
		return l.T("kernel.simd")
	case k == "go" && refused != "":
		return l.T("kernel.refused", refused)
	case k == "go":
		return l.T("kernel.go")
	}
	return ""
}

// memoryText says how much memory the page and the worker hold, once both
// have been measured.
func memoryText(l i18n.Lang, page, worker, helpers uint64) string {
	if page == 0 || worker == 0 {
		return ""
	}
	if helpers != 0 {
		return l.T("memory.helpers", i18n.Megabytes(page), i18n.Megabytes(worker), i18n.Megabytes(helpers))
	}
	return l.T("memory", i18n.Megabytes(page), i18n.Megabytes(worker))
}
