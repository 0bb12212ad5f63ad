// Package panels holds the digits instrument's panels: the Train panel,
// the loss chart and its runs, the status, the draw pad, the templates,
// the confusion matrix, the gallery, the inspector, the Hessian, my
// digits and the model's files. Each is a go-app component that takes
// its inputs as I… fields and posts the store's actions
// (digits/store/actions.go); none keeps state beyond what it shows (open,
// pointed at, what its inputs were rendered with), and none calls the
// room's owner (package digits), which handles the actions.
package panels
