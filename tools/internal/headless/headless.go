// Package headless finds a Chromium and starts it the way this machine
// needs for tests and benchmarks: headless, as root without a sandbox, and
// without the background traffic that a closed network refuses.
package headless

import (
	"os"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// Find returns $CHROME, or the first Chromium or Chrome on $PATH, or "".
func Find() string {
	if c := os.Getenv("CHROME"); c != "" {
		return c
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Options are the allocator options for the browser at chrome with a fresh
// profile in the directory profile.
func Options(chrome, profile string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chrome),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(profile),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-extensions", true),
	}
}
