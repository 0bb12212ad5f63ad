package kit_test

import (
	"testing"

	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/kit/kittest"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

var (
	testAction = kit.Action[int]{Name: "kit-test/number"}
	testSignal = kit.Signal{Name: "kit-test/signal"}
)

func TestActionCarriesItsTypedPayload(t *testing.T) {
	e, ctx := kittest.Context(t)
	var got []int
	signals := 0
	testAction.Handle(ctx, func(_ app.Context, v int) { got = append(got, v) })
	testSignal.Handle(ctx, func(app.Context) { signals++ })
	testAction.Post(ctx, 7)
	ctx.NewActionWithValue(testAction.Name, "seven") // not an int: dropped
	testAction.Post(ctx, 8)
	testSignal.Post(ctx)
	e.ConsumeAll()
	if len(got) != 2 || got[0] != 7 || got[1] != 8 {
		t.Errorf("handled %v, want [7 8]", got)
	}
	if signals != 1 {
		t.Errorf("%d signals handled, want 1", signals)
	}
}
