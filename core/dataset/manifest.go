package dataset

// ManifestVersion is the version of the manifest format.
const ManifestVersion = 1

// Manifest lists the packs the page can load. It is stored as
// web/data/manifest.json by tools/mnistpack.
type Manifest struct {
	Version int        `json:"version"`
	Packs   []PackInfo `json:"packs"`
}

// PackInfo describes one pack file: what it holds and how large it is, so the
// page can show progress, and its SHA-256, so the page can verify it.
type PackInfo struct {
	Name      string `json:"name"`      // "default" or "full"
	File      string `json:"file"`      // relative to the manifest
	Title     string `json:"title"`     // for display: "10,000 train / 2,000 test"
	Train     int    `json:"train"`     // training images
	Test      int    `json:"test"`      // test images
	Bytes     int64  `json:"bytes"`     // size of the file
	GzipBytes int64  `json:"gzipBytes"` // size after gzip at best compression
	SHA256    string `json:"sha256"`    // lowercase hex digest of the file

	// For a version 3 pack, the prefix that holds the training images
	// (TrainPrefix) and its digest, so that the page can verify them and
	// start before the test images arrive; zero and empty otherwise.
	TrainBytes  int64  `json:"trainBytes,omitempty"`
	TrainSHA256 string `json:"trainSha256,omitempty"`
}

// Find returns the pack called name and whether m lists it.
func (m *Manifest) Find(name string) (PackInfo, bool) {
	for _, p := range m.Packs {
		if p.Name == name {
			return p, true
		}
	}
	return PackInfo{}, false
}
