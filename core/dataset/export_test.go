package dataset

// Test helpers for package dataset_test, whose files can import
// datasettest: it imports this package, so this package's own test files
// cannot.
var (
	StrokeSet       = strokeSet
	CheckPacksEqual = checkPacksEqual
)
