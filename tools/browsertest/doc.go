// Package browsertest drives the real page in headless Chromium with
// chromedp: it builds nothing itself (make test builds the site first),
// serves the repository root with tools/serve, and clicks, types and draws
// with real input events through the DevTools protocol, reading what a
// person would see.
//
// Without Chromium or Chrome the tests are skipped with a message saying
// how to install it; with CI=true a missing browser fails the run.
package browsertest
