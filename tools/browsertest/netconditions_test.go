package browsertest

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// conditions is the network a page's target is given: offline, or each
// request delayed by LatencyMS and held to these bytes a second each way
// (0: not held).
type conditions struct {
	Offline            bool    `json:"offline"`
	LatencyMS          float64 `json:"latency"`
	DownloadThroughput float64 `json:"downloadThroughput"`
	UploadThroughput   float64 `json:"uploadThroughput"`
}

// emulateNetwork gives the target of ctx the network c, and offline
// service workers too when c is offline. It asks Chromium with
// Network.emulateNetworkConditionsByRule and, where the browser refuses
// it as Debian's Chromium 148 does, with Network.emulateNetworkConditions,
// the older command it still takes.
func emulateNetwork(ctx context.Context, c conditions) error {
	return chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		offline := c.Offline
		_, err := cdp.Call(ctx, tg, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			EmulateOfflineServiceWorker: &offline,
			MatchedNetworkConditions: []*network.Conditions{{Offline: c.Offline, Latency: c.LatencyMS,
				DownloadThroughput: c.DownloadThroughput, UploadThroughput: c.UploadThroughput}},
		})
		if err == nil {
			_, err = cdp.Call(ctx, tg, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: c.Offline, DownloadThroughput: -1, UploadThroughput: -1})
			return err
		}
		old := c
		if old.DownloadThroughput == 0 {
			old.DownloadThroughput = -1
		}
		if old.UploadThroughput == 0 {
			old.UploadThroughput = -1
		}
		_, err = cdp.Call(ctx, tg, cdp.Command[conditions, cdp.Empty]{Method: "Network.emulateNetworkConditions"}, old)
		return err
	}))
}
