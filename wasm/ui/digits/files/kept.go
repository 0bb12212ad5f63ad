package files

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/modelfile"
)

// KeptVersion is the version of the record the page keeps in the
// browser's storage. Version 1 kept the model and its settings under two
// keys (LegacyModelKey, LegacySettingsKey); version 2 keeps them as one
// record under one key.
const KeptVersion = 2

// Storage keys of version 1's two halves, read once and then dropped.
const (
	LegacyModelKey    = "softmax:model"
	LegacySettingsKey = "softmax:settings"
)

// ErrKeptVersion is returned for a kept record of a version this page
// does not read.
var ErrKeptVersion = errors.New("kept record: unknown version")

// Kept is what the page keeps across reloads: the model as its JSON file
// and the link's fragment of the settings it was trained with. It is
// written as one JSON value under one storage key by one setItem, which
// the browser stores whole: two tabs writing at once leave one writer's
// whole record, never one tab's model beside the other's settings.
type Kept struct {
	Version  int             `json:"v"`
	Model    json.RawMessage `json:"model"`    // core/modelfile's JSON file
	Settings string          `json:"settings"` // link.Encode's fragment
}

// EncodeKept returns the record of model (a JSON model file, as
// core/modelfile writes it) and the settings' fragment, as the string
// the browser's storage holds. The record is put together around the
// model's bytes as they are: json.Marshal would scan and compact all
// 90 kB of them again, which took about 15 ms of the page's main thread
// in the task that keeps the model. A model that is not one JSON object
// is refused.
func EncodeKept(model []byte, settings string) (string, error) {
	m := bytes.TrimSpace(model)
	if len(m) < 2 || m[0] != '{' || m[len(m)-1] != '}' {
		return "", fmt.Errorf("kept record: the model is not a JSON object")
	}
	set, err := json.Marshal(settings)
	if err != nil {
		return "", fmt.Errorf("kept record: %w", err)
	}
	var b strings.Builder
	b.Grow(len(m) + len(set) + 32)
	fmt.Fprintf(&b, `{"v":%d,"model":`, KeptVersion)
	b.Write(m)
	b.WriteString(`,"settings":`)
	b.Write(set)
	b.WriteByte('}')
	return b.String(), nil
}

// ReadKept reads what EncodeKept wrote: the whole record, or an error.
// It returns ErrKeptVersion, wrapped, for a record of another version,
// and modelfile.ErrFormat, wrapped, for one that is not whole or has no
// model. The model itself is decoded by File, when the data are in.
func ReadKept(s string) (*Kept, error) {
	var k Kept
	if err := json.Unmarshal([]byte(s), &k); err != nil {
		return nil, fmt.Errorf("%w: kept record: %v", modelfile.ErrFormat, err)
	}
	if k.Version != KeptVersion {
		return nil, fmt.Errorf("%w %d, want %d", ErrKeptVersion, k.Version, KeptVersion)
	}
	if len(k.Model) == 0 || string(k.Model) == "null" {
		return nil, fmt.Errorf("%w: kept record without a model", modelfile.ErrFormat)
	}
	return &k, nil
}

// File decodes the record's model, for these images (784 features).
func (k *Kept) File() (*modelfile.File, error) {
	return modelfile.Decode(k.Model, dataset.Pixels)
}
